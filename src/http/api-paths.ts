/** Where each API is mounted; links the API renders (the ical feed) are built from these too. */
export const PUBLIC_BASE = "/api/public/v2";
export const ADMIN_BASE = "/api/admin/v1";

/** A route as `createRoute` declares it: method and path relative to its router. */
export interface RouteSpec {
  method: string;
  path: string;
}
