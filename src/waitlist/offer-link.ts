/** Where the widget's offer page is served (the offer's token in its query string). */
export const OFFER_PAGE = "/widget/offer";

/**
 * The link of an offer's messages: the widget's offer page at `origin`, with
 * its token, in the language the message is written in when the entry has one.
 */
export const offerUrl = (origin: string, token: string, locale: string | null) =>
  `${origin}${OFFER_PAGE}?token=${token}${locale ? `&lang=${encodeURIComponent(locale)}` : ""}`;
