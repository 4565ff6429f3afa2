import { useEffect } from "preact/hooks";
import type { Details } from "../flow";
import { formatDateTime } from "../time";
import type { BookingForm, FieldRule } from "../types";
import { Countdown } from "./Countdown";
import { Heading } from "./Heading";

type Field = keyof Details;

interface FieldSpec {
  name: Field;
  label: string;
  rule: FieldRule;
  type?: "text" | "tel" | "email";
  autocomplete: string;
  multiline?: boolean;
}

export function DetailsStep(props: {
  form: BookingForm;
  details: Details;
  errors: Partial<Record<Field, string>>;
  start: string;
  /** What is being booked, e.g. "Haircut + Beard trim with Mia Wagner". */
  what: string;
  expiresAt: string | null;
  busy: boolean;
  onChange: (name: Field, value: string) => void;
  onExpire: () => void;
  onSubmit: () => void;
  onBack: () => void;
}) {
  const { form } = props;
  // After a refused submit, the first field at fault takes the focus (once rendered as invalid).
  useEffect(() => {
    document.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [props.errors]);
  const fields: FieldSpec[] = [
    { name: "first_name", label: "First name", rule: "required", autocomplete: "given-name" },
    {
      name: "middle_name",
      label: "Middle name",
      rule: form.customer_middle_name,
      autocomplete: "additional-name",
    },
    {
      name: "last_name",
      label: "Last name",
      rule: form.customer_last_name,
      autocomplete: "family-name",
    },
    { name: "phone", label: "Phone", rule: "required", type: "tel", autocomplete: "tel" },
    {
      name: "email",
      label: "E-mail",
      rule: form.customer_email,
      type: "email",
      autocomplete: "email",
    },
    {
      name: "comment",
      label: "Comment",
      rule: form.booking_comment,
      autocomplete: "off",
      multiline: true,
    },
  ];
  return (
    <section>
      <Heading>Your details</Heading>
      <p class="summary">
        <strong>{props.what}</strong>
        <br />
        {formatDateTime(props.start)}
      </p>
      {props.expiresAt && <Countdown expiresAt={props.expiresAt} onExpire={props.onExpire} />}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        {fields
          .filter((f) => f.rule !== "hidden")
          .map((f) => {
            const id = `f-${f.name}`;
            const error = props.errors[f.name];
            const common = {
              id,
              name: f.name,
              value: props.details[f.name],
              required: f.rule === "required",
              autocomplete: f.autocomplete,
              "aria-invalid": error ? true : undefined,
              "aria-describedby": error ? `${id}-error` : undefined,
              onInput: (e: Event) =>
                props.onChange(f.name, (e.currentTarget as HTMLInputElement).value),
            };
            return (
              <div class="field" key={f.name}>
                <label for={id}>
                  {f.label}
                  {f.rule === "required" ? " *" : " (optional)"}
                </label>
                {f.multiline ? (
                  <textarea rows={3} maxLength={5000} {...common} />
                ) : f.type === "email" ? (
                  <input type="email" {...common} />
                ) : f.type === "tel" ? (
                  <input type="tel" inputMode="tel" {...common} />
                ) : (
                  <input type="text" {...common} />
                )}
                {error && (
                  <p class="error" id={`${id}-error`}>
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        <p class="hint">* required</p>
        <div class="actions">
          <button type="button" onClick={props.onBack}>
            Back
          </button>
          <button type="submit" class="primary" disabled={props.busy}>
            {props.busy ? "Booking…" : "Book"}
          </button>
        </div>
      </form>
    </section>
  );
}
