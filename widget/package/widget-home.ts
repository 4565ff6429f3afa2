/**
 * Where this browser last opened the booking widget of a location (its workspace and
 * publishable key): the manage page, which holds only a booking's token, links a package
 * back to it. The API never hands a publishable key to a manage link's holder, so without
 * a visit from this browser (or with the widget's storage partitioned under the salon's
 * site) the page names no link and says where to book instead.
 */
export interface WidgetHome {
  workspace: string;
  key: string;
}

const slot = (location: string) => `salon-widget:${location}`;

export function rememberWidget(location: string, home: WidgetHome) {
  try {
    localStorage.setItem(slot(location), JSON.stringify(home));
  } catch {
    // Storage refused (private mode, a full quota): the manage page then names no link.
  }
}

function widgetHome(location: string): WidgetHome | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(slot(location)) ?? "null");
    if (typeof parsed !== "object" || parsed === null) return null;
    const { workspace, key } = parsed as Partial<WidgetHome>;
    return typeof workspace === "string" && typeof key === "string" ? { workspace, key } : null;
  } catch {
    return null;
  }
}

/** The widget for a location with a package chosen, in the page's language; null: none known. */
export function packageBookingUrl(location: string, pkg: string, lang: string): string | null {
  const home = widgetHome(location);
  if (!home) return null;
  const q = new URLSearchParams({
    workspace: home.workspace,
    location,
    key: home.key,
    package: pkg,
    lang,
  });
  return `/widget?${q}`;
}
