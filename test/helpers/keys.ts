import { expect } from "vitest";
import { admin, type Client, client } from "./http";
import type { TestWorkspace } from "./factory";

export interface PublishableKey {
  id: string;
  key: string;
  allowedOrigins: string[];
  /** Calls with the publishable key (add an `origin` header to act as a page). */
  api: Client;
}

/** Issues a publishable key for `ws` through the management API. */
export async function createPublishableKey(
  ws: TestWorkspace,
  allowedOrigins: string[] = ["https://salon.example"],
): Promise<PublishableKey> {
  const res = await admin(`/workspaces/${ws.id}/api-keys`, {
    method: "POST",
    body: { kind: "publishable", allowed_origins: allowedOrigins },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    id: res.body.id,
    key: res.body.api_key,
    allowedOrigins: res.body.allowed_origins,
    api: client(ws.id, res.body.api_key),
  };
}
