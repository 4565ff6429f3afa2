import { ApiFailure, NetworkFailure } from "./api";
import type { Translate } from "./i18n/messages";
import type { NoticeState } from "./steps/Notice";

/** A failure in the page's language (the API's own messages are English, so they are not shown). */
export const describe = (t: Translate, e: unknown): NoticeState =>
  e instanceof NetworkFailure
    ? { kind: "network", message: t("error.network") }
    : {
        kind: "error",
        message: t(
          e instanceof ApiFailure && e.status === 429 ? "error.rate_limited" : "error.generic",
        ),
      };
