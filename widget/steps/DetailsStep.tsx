import { useEffect } from "preact/hooks";
import type { Details } from "../flow";
import { useI18n } from "../i18n/context";
import type { MessageKey } from "../i18n/messages";
import { formatWhen } from "../time";
import type { BookingForm, FieldRule } from "../types";
import { Countdown } from "./Countdown";
import { Heading } from "./Heading";

type Field = keyof Details;

interface FieldSpec {
  name: Field;
  label: MessageKey;
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
  /** Payment comes next (the pay step books): the button goes on instead of booking. */
  paysNext: boolean;
  busy: boolean;
  onChange: (name: Field, value: string) => void;
  onExpire: () => void;
  onSubmit: () => void;
  onBack: () => void;
}) {
  const { form } = props;
  const { t, format } = useI18n();
  // After a refused submit, the first field at fault takes the focus (once rendered as invalid).
  useEffect(() => {
    document.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [props.errors]);
  const fields: FieldSpec[] = [
    {
      name: "first_name",
      label: "details.first_name",
      rule: "required",
      autocomplete: "given-name",
    },
    {
      name: "middle_name",
      label: "details.middle_name",
      rule: form.customer_middle_name,
      autocomplete: "additional-name",
    },
    {
      name: "last_name",
      label: "details.last_name",
      rule: form.customer_last_name,
      autocomplete: "family-name",
    },
    { name: "phone", label: "details.phone", rule: "required", type: "tel", autocomplete: "tel" },
    {
      name: "email",
      label: "details.email",
      rule: form.customer_email,
      type: "email",
      autocomplete: "email",
    },
    {
      name: "comment",
      label: "details.comment",
      rule: form.booking_comment,
      autocomplete: "off",
      multiline: true,
    },
  ];
  return (
    <section>
      <Heading>{t("details.heading")}</Heading>
      <p class="summary">
        <strong>{props.what}</strong>
        <br />
        {formatWhen(props.start, format)}
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
                  {t(f.label)}
                  {t(f.rule === "required" ? "common.required_mark" : "common.optional_mark")}
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
        <p class="hint">{t("common.required_hint")}</p>
        <div class="actions">
          <button type="button" onClick={props.onBack}>
            {t("common.back")}
          </button>
          <button type="submit" class="primary" disabled={props.busy}>
            {t(
              props.paysNext ? "common.continue" : props.busy ? "details.booking" : "details.book",
            )}
          </button>
        </div>
      </form>
    </section>
  );
}
