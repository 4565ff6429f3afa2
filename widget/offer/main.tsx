import { render } from "preact";
import { keylessClient } from "../api";
import { reportHeight } from "../embed";
import { I18nContext } from "../i18n/context";
import { pageLanguage } from "../i18n/page";
import { OfferPage } from "./OfferPage";

// `/widget/offer?token=…`: the token opens one waitlist offer; no key, no workspace.
const root = document.getElementById("widget");
const token = new URLSearchParams(location.search).get("token");
const i18n = pageLanguage("offer.title");

if (root) {
  render(
    <I18nContext.Provider value={i18n}>
      <OfferPage api={keylessClient()} token={token} />
    </I18nContext.Provider>,
    root,
  );
  reportHeight();
}
