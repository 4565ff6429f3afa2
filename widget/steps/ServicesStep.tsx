import { serviceTerms } from "../service-terms";
import type { Service } from "../types";
import { Heading } from "./Heading";

export function ServicesStep(props: {
  services: Service[];
  selected: string[];
  onToggle: (uuid: string) => void;
  onNext: () => void;
}) {
  const { services, selected } = props;
  return (
    <section aria-labelledby="step">
      <Heading>Choose your services</Heading>
      {services.length === 0 ? (
        <p>No services can be booked online here yet.</p>
      ) : (
        <fieldset>
          <legend>Services</legend>
          {services.map((s) => {
            const terms = serviceTerms(s);
            return (
              <label class="choice" key={s.uuid}>
                <input
                  type="checkbox"
                  name="service"
                  value={s.uuid}
                  checked={selected.includes(s.uuid)}
                  onChange={() => props.onToggle(s.uuid)}
                />
                <span class="choice-name">{s.name}</span>
                {terms && <span class="choice-meta">{terms}</span>}
              </label>
            );
          })}
        </fieldset>
      )}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={selected.length === 0}
          onClick={props.onNext}
        >
          Continue
        </button>
      </div>
    </section>
  );
}
