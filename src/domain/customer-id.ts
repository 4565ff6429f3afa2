/**
 * A customer's id is derived from (workspace, E.164 phone): two bookings racing
 * to create the same new customer compute the same id, so the upsert of one and
 * the booking of the other can never point at different rows.
 */
export async function customerIdFor(workspaceId: string, phoneE164: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(`customer:${workspaceId}:${phoneE164}`),
    ),
  );
  const bytes = digest.slice(0, 16);
  // RFC 9562 version 8 (custom) with the RFC variant bits.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
