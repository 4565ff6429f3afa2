import { expect } from "vitest";
import { admin, send, type Received } from "./http";
import { createSalon, type Salon } from "./salon";
import type { TestWorkspace } from "./factory";

/** Where the booking server answers (Google is given `<origin>/rwg`). */
export const RWG = "/rwg/v3";

export interface RwgCredentials {
  username: string;
  password: string;
}

/**
 * Turns the booking server on for a workspace (PUT /workspaces/{ws}/rwg); answers the credentials.
 * `partnerId`: the salon's own Google partner account (else the platform's RWG_PARTNER_ID).
 */
export async function enableRwg(
  ws: TestWorkspace,
  creds: Partial<RwgCredentials> & { enabled?: boolean; partnerId?: string } = {},
): Promise<RwgCredentials> {
  const username = creds.username ?? `google-${ws.id.slice(0, 8)}`;
  const password = creds.password ?? `pw-${crypto.randomUUID()}`;
  const saved = await admin(`/workspaces/${ws.id}/rwg`, {
    method: "PUT",
    body: {
      enabled: creds.enabled ?? true,
      username,
      password,
      ...(creds.partnerId ? { partner_id: creds.partnerId } : {}),
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { username, password };
}

export const basic = ({ username, password }: RwgCredentials) =>
  `Basic ${btoa(`${username}:${password}`)}`;

/** Google's client: POSTs a method's request (proto JSON) with the workspace's Basic auth. */
export function googleClient(creds: RwgCredentials) {
  // Response bodies are asserted field by field in tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return <T = any>(method: string, body: unknown = {}): Promise<Received<T>> =>
    send<T>(`${RWG}/${method}`, {
      method: method === "HealthCheck" ? "GET" : "POST",
      ...(method === "HealthCheck" ? {} : { body }),
      headers: { authorization: basic(creds) },
    });
}
export type GoogleClient = ReturnType<typeof googleClient>;

/** Seconds since the epoch of an ISO instant, as Google writes an int64: a string. */
export const sec = (iso: string) => String(Date.parse(iso) / 1000);

/** A salon (test/helpers/salon.ts) with its booking server enabled, and Google's client for it. */
export async function googleSalon(
  staffCount = 3,
): Promise<Salon & { google: GoogleClient; creds: RwgCredentials }> {
  const salon = await createSalon(staffCount);
  const creds = await enableRwg(salon.ws);
  return { ...salon, google: googleClient(creds), creds };
}

/** A Google user, as CreateBooking's user_information carries one. */
export const googleUser = (userId = "1111111111111111111", phone = "+49 151 23456789") => ({
  user_id: userId,
  given_name: "Anna",
  family_name: "Berg",
  telephone: phone,
  email: "anna@example.com",
});
