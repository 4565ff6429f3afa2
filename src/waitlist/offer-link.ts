/** Where the widget's offer page is served (the offer's token in its query string). */
export const OFFER_PAGE = "/widget/offer";

/** The link of an offer's messages: the widget's offer page at `origin`, with its token. */
export const offerUrl = (origin: string, token: string) => `${origin}${OFFER_PAGE}?token=${token}`;
