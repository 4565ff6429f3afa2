import { render } from "preact";
import { createClient } from "./api";
import { App } from "./App";
import { I18nContext } from "./i18n/context";
import { pageLanguage } from "./i18n/page";
import { reportHeight } from "./embed";

const root = document.getElementById("widget");
const params = new URLSearchParams(location.search);
const workspace = params.get("workspace");
const loc = params.get("location");
const key = params.get("key");
const i18n = pageLanguage("page.title");

if (root) {
  if (!workspace || !loc || !key) {
    const p = document.createElement("p");
    p.className = "notice notice-error";
    p.setAttribute("role", "alert");
    p.textContent = i18n.t("page.needs_params");
    root.replaceChildren(p);
  } else {
    render(
      <I18nContext.Provider value={i18n}>
        <App api={createClient(workspace, key)} location={loc} />
      </I18nContext.Provider>,
      root,
    );
  }
  reportHeight();
}
