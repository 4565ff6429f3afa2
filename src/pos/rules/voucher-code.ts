/**
 * Voucher codes are read aloud at a till and typed from a printed card, so
 * their alphabet drops the look-alikes (0/O, 1/I); 32 symbols make each one
 * exactly 5 bits of a random byte (no modulo bias). 16 symbols = 80 bits,
 * shown as four groups of four.
 */
export const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const CODE_SYMBOLS = 16;
const GROUP = 4;

/** A code from CODE_SYMBOLS random bytes (the caller draws them from a CSPRNG). */
export function codeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < CODE_SYMBOLS) throw new Error(`need ${CODE_SYMBOLS} random bytes`);
  let symbols = "";
  for (let i = 0; i < CODE_SYMBOLS; i++) symbols += CODE_ALPHABET[(bytes[i] ?? 0) & 31];
  return group(symbols);
}

const group = (symbols: string) => symbols.match(new RegExp(`.{1,${GROUP}}`, "g"))?.join("-") ?? "";

/**
 * The stored form of a code as someone typed it: case, spaces and dashes do
 * not matter. Null when it cannot be a code at all.
 */
export function normaliseCode(typed: string): string | null {
  const symbols = typed.toUpperCase().replace(/[\s-]/g, "");
  if (symbols.length !== CODE_SYMBOLS) return null;
  for (const c of symbols) if (!CODE_ALPHABET.includes(c)) return null;
  return group(symbols);
}
