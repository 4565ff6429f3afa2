// The little of Node that webhook-delivery.test.ts uses (under nodejs_compat) for its
// independent signature check; @types/node would clash with @cloudflare/workers-types here.
declare module "node:crypto" {
  interface Hmac {
    update(data: string): Hmac;
    digest(encoding: "base64"): string;
  }
  export function createHmac(algorithm: string, key: Uint8Array): Hmac;
}

declare const Buffer: {
  from(data: string, encoding: "base64"): Uint8Array;
};
