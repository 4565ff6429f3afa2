/** Payment methods as the owner reads them (the API's keys stay the account names). */
const METHODS: Record<string, string> = {
  cash_account: "Cash",
  card_account: "Card",
  qr_account: "QR code",
  online_account: "Online",
  voucher: "Voucher",
};

export const methodLabel = (key: string): string => METHODS[key] ?? key;
