import type { ComponentChildren } from "preact";
import { useI18n } from "../i18n/context";
import type { MessageKey } from "../i18n/messages";
import { SalonHeader, SalonHelp } from "../steps/Face";
import type { SalonFace } from "../types";

/**
 * A page of the manage and offer links: the salon's name and logo above, how to reach it
 * below, around every state the page can be in, so help is always in the same place
 * (WCAG 2.2, consistent help). Without a face (a link that opened nothing) only the content.
 */
export function Frame(props: { face: SalonFace | null; children: ComponentChildren }) {
  const { face } = props;
  return (
    <>
      {face && <SalonHeader face={face} />}
      {props.children}
      {face && <SalonHelp face={face} />}
    </>
  );
}

/**
 * A "please contact the salon" hint: with the salon named and its phone as a link when the
 * view names one (`named` takes `{salon}`), the generic sentence otherwise.
 */
export function ContactHint(props: {
  face: SalonFace | null;
  plain: MessageKey;
  named: MessageKey;
}) {
  const { t } = useI18n();
  const { face } = props;
  if (!face) return <p class="hint">{t(props.plain)}</p>;
  return (
    <p class="hint">
      {t(props.named, { salon: face.name })}
      {face.phone && (
        <>
          {" "}
          <a href={`tel:${face.phone}`}>
            {t("face.call", { phone: face.phone_display ?? face.phone })}
          </a>
        </>
      )}
    </p>
  );
}
