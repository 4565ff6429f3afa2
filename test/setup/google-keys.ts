import { generateKeyPairSync } from "node:crypto";

/** The partner id the Worker under test is given and google-local accepts. */
export const TEST_RWG_PARTNER_ID = "20001";

/** A salon's own partner account (a workspace's `partner_id`), which google-local accepts too. */
export const TEST_SALON_PARTNER_ID = "30003";

/**
 * A throwaway service account for the run: google-local (test/setup/google-server.ts) checks
 * token requests against the public key; the Worker signs them with the private one. Kept in
 * process.env so that the global setup reads the key pair the bindings were given.
 */
export function googleTestKeys(): { publicKeyPem: string; privateKeyPem: string } {
  if (!process.env.GOOGLE_LOCAL_PUBLIC_KEY || !process.env.GOOGLE_LOCAL_PRIVATE_KEY) {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    process.env.GOOGLE_LOCAL_PUBLIC_KEY = publicKey;
    process.env.GOOGLE_LOCAL_PRIVATE_KEY = privateKey;
  }
  return {
    publicKeyPem: process.env.GOOGLE_LOCAL_PUBLIC_KEY,
    privateKeyPem: process.env.GOOGLE_LOCAL_PRIVATE_KEY,
  };
}
