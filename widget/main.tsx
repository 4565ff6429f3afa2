import { render } from "preact";
import { createClient } from "./api";
import { App, loadStart } from "./App";
import { I18nContext } from "./i18n/context";
import { loadPageLanguage } from "./i18n/load";
import { reportHeight } from "./embed";
import { rememberWidget } from "./package/widget-home";

const root = document.getElementById("widget");
const params = new URLSearchParams(location.search);
const workspace = params.get("workspace");
const loc = params.get("location");
const key = params.get("key");
// A package to book with (`?package=<uuid>`, as the manage page links it).
const pkg = params.get("package");

if (root) {
  // The salon's data is asked for while the page's language loads, not after.
  const api = workspace && loc && key ? createClient(workspace, key) : null;
  if (workspace && loc && key) rememberWidget(loc, { workspace, key });
  const first = api && loc ? loadStart(api, loc) : undefined;
  // A rejection is shown by the App (with a retry); this only keeps it from going unhandled.
  first?.catch(() => undefined);
  void loadPageLanguage("page.title").then((i18n) => {
    if (!api || !loc) {
      const p = document.createElement("p");
      p.className = "notice notice-error";
      p.setAttribute("role", "alert");
      p.textContent = i18n.t("page.needs_params");
      root.replaceChildren(p);
    } else {
      render(
        <I18nContext.Provider value={i18n}>
          <App api={api} location={loc} first={first} packageUuid={pkg} />
        </I18nContext.Provider>,
        root,
      );
    }
    reportHeight();
  });
}
