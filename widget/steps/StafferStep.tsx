import type { Staffer } from "../types";
import { Heading } from "./Heading";

export function StafferStep(props: {
  staffers: Staffer[];
  selected: string;
  onSelect: (uuid: string) => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const options = [
    { uuid: "", name: "Anyone available" },
    ...props.staffers.map((s) => ({
      uuid: s.uuid,
      name: [s.first_name, s.last_name].filter(Boolean).join(" "),
    })),
  ];
  return (
    <section>
      <Heading>Who should it be?</Heading>
      <fieldset>
        <legend>Staff member</legend>
        {options.map((o) => (
          <label class="choice" key={o.uuid || "anyone"}>
            <input
              type="radio"
              name="staffer"
              value={o.uuid}
              checked={props.selected === o.uuid}
              onChange={() => props.onSelect(o.uuid)}
            />
            <span class="choice-name">{o.name}</span>
          </label>
        ))}
      </fieldset>
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          Back
        </button>
        <button type="button" class="primary" onClick={props.onNext}>
          Continue
        </button>
      </div>
    </section>
  );
}
