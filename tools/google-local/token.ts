// The OAuth 2.0 token endpoint of a Google service account (RFC 7523 JWT bearer grant): the
// assertion must be an RS256 JWT the configured key signed, for this endpoint, with the
// Maps Booking scope; the answer is a bearer token the API endpoints then require.
import { importSPKI, jwtVerify } from "jose";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const MAPS_BOOKING_SCOPE = "https://www.googleapis.com/auth/mapsbooking";

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

const refuse = (error: string, description: string): TokenAnswer => ({
  status: 400,
  body: { error, error_description: description },
});

/** Checks one token request (its form body) and issues a token into `issued`. */
export async function tokenRequest(
  form: URLSearchParams,
  expected: { publicKeyPem: string; audience: string },
  issued: Set<string>,
): Promise<TokenAnswer> {
  if (form.get("grant_type") !== JWT_BEARER)
    return refuse("unsupported_grant_type", `grant_type must be ${JWT_BEARER}`);
  const assertion = form.get("assertion");
  if (!assertion) return refuse("invalid_request", "assertion is required");
  try {
    const key = await importSPKI(expected.publicKeyPem, "RS256");
    const { payload } = await jwtVerify(assertion, key, {
      algorithms: ["RS256"],
      audience: expected.audience,
      requiredClaims: ["iss", "iat", "exp"],
    });
    const scopes = String(payload.scope ?? "").split(" ");
    if (!scopes.includes(MAPS_BOOKING_SCOPE))
      return refuse("invalid_scope", `the assertion's scope must include ${MAPS_BOOKING_SCOPE}`);
  } catch (error) {
    return refuse("invalid_grant", `Invalid JWT: ${(error as Error).message}`);
  }
  const token = `ya29.local-${crypto.randomUUID()}`;
  issued.add(token);
  return { status: 200, body: { access_token: token, expires_in: 3599, token_type: "Bearer" } };
}
