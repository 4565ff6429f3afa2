/** `GET /customer-packages/{uuid}` as a publishable key sees it: what it books, no customer data. */
export interface PublicPackage {
  uuid: string;
  name: string;
  status: "active" | "used_up" | "expired" | "void" | "past_due";
  expires_at: string;
  credits: { service_uuids: string[]; remaining: number; expires_at: string }[];
}
