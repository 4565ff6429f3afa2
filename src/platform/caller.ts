/** The two kinds of API key: a secret key (servers, staff) and a publishable key (web pages, customers). */
export type ApiKeyKind = "secret" | "publishable";

/** Who asks for a change: a customer (a publishable key, the widget) or staff (a secret key). */
export type Caller = "customer" | "staff";
