import type { MessageKind } from "./kinds";
import type { BuiltInLocale } from "./locale";

/** One kind's text in one language: an e-mail (subject and body) and a short SMS. */
export interface BuiltInText {
  subject: string;
  body: string;
  sms: string;
}

type Texts = Record<MessageKind, Record<BuiltInLocale, BuiltInText>>;

/**
 * The texts a workspace gets without templates of its own. Only documented
 * variables appear (a unit test renders each and finds no `{{` left).
 */
export const BUILT_IN_TEXTS: Texts = {
  "booking-confirmation": {
    en: {
      subject: "Your booking at {{location_name}} is confirmed",
      body: "Hello {{customer_first_name}},\n\nthank you for your booking at {{location_name}}.\n\n{{items}}\n\nTotal: {{total}}\n{{payment}}\n\nAdd it to your calendar: {{ical_url}}\nChange or cancel: {{manage_url}}\n\nSee you soon!",
      sms: "{{location_name}}: booked {{date}}, {{time}}. {{manage_url}}",
    },
    de: {
      subject: "Ihre Buchung bei {{location_name}} ist bestätigt",
      body: "Hallo {{customer_first_name}},\n\nvielen Dank für Ihre Buchung bei {{location_name}}.\n\n{{items}}\n\nGesamt: {{total}}\n{{payment}}\n\nIn den Kalender eintragen: {{ical_url}}\nÄndern oder absagen: {{manage_url}}\n\nBis bald!",
      sms: "{{location_name}}: gebucht {{date}}, {{time}}. {{manage_url}}",
    },
    fr: {
      subject: "Votre réservation chez {{location_name}} est confirmée",
      body: "Bonjour {{customer_first_name}},\n\nmerci pour votre réservation chez {{location_name}}.\n\n{{items}}\n\nTotal : {{total}}\n{{payment}}\n\nAjouter à votre agenda : {{ical_url}}\nModifier ou annuler : {{manage_url}}\n\nÀ bientôt !",
      sms: "{{location_name}} : réservé le {{date}}, {{time}}. {{manage_url}}",
    },
    es: {
      subject: "Tu reserva en {{location_name}} está confirmada",
      body: "Hola {{customer_first_name}}:\n\ngracias por tu reserva en {{location_name}}.\n\n{{items}}\n\nTotal: {{total}}\n{{payment}}\n\nAñádela a tu calendario: {{ical_url}}\nCambiar o cancelar: {{manage_url}}\n\n¡Hasta pronto!",
      sms: "{{location_name}}: reservado {{date}}, {{time}}. {{manage_url}}",
    },
  },
  "booking-rescheduled": {
    en: {
      subject: "Your booking at {{location_name}} has moved",
      body: "Hello {{customer_first_name}},\n\nyour booking at {{location_name}} is now on {{date}} at {{time}}.\n\n{{items}}\n\nAdd it to your calendar: {{ical_url}}\nChange or cancel: {{manage_url}}",
      sms: "{{location_name}}: moved to {{date}}, {{time}}. {{manage_url}}",
    },
    de: {
      subject: "Ihre Buchung bei {{location_name}} wurde verschoben",
      body: "Hallo {{customer_first_name}},\n\nIhr Termin bei {{location_name}} ist jetzt am {{date}} um {{time}}.\n\n{{items}}\n\nIn den Kalender eintragen: {{ical_url}}\nÄndern oder absagen: {{manage_url}}",
      sms: "{{location_name}}: verschoben auf {{date}}, {{time}}. {{manage_url}}",
    },
    fr: {
      subject: "Votre réservation chez {{location_name}} a été déplacée",
      body: "Bonjour {{customer_first_name}},\n\nvotre rendez-vous chez {{location_name}} est désormais le {{date}} à {{time}}.\n\n{{items}}\n\nAjouter à votre agenda : {{ical_url}}\nModifier ou annuler : {{manage_url}}",
      sms: "{{location_name}} : déplacé au {{date}}, {{time}}. {{manage_url}}",
    },
    es: {
      subject: "Tu reserva en {{location_name}} ha cambiado",
      body: "Hola {{customer_first_name}}:\n\ntu cita en {{location_name}} es ahora el {{date}} a las {{time}}.\n\n{{items}}\n\nAñádela a tu calendario: {{ical_url}}\nCambiar o cancelar: {{manage_url}}",
      sms: "{{location_name}}: cambiado a {{date}}, {{time}}. {{manage_url}}",
    },
  },
  "booking-canceled": {
    en: {
      subject: "Your booking at {{location_name}} is canceled",
      body: "Hello {{customer_first_name}},\n\nyour booking at {{location_name}} is canceled:\n\n{{items}}\n\nWe hope to see you another time.",
      sms: "{{location_name}}: your booking {{date}}, {{time}} is canceled.",
    },
    de: {
      subject: "Ihre Buchung bei {{location_name}} wurde storniert",
      body: "Hallo {{customer_first_name}},\n\nIhre Buchung bei {{location_name}} wurde storniert:\n\n{{items}}\n\nWir freuen uns auf ein anderes Mal.",
      sms: "{{location_name}}: Ihr Termin {{date}}, {{time}} wurde storniert.",
    },
    fr: {
      subject: "Votre réservation chez {{location_name}} est annulée",
      body: "Bonjour {{customer_first_name}},\n\nvotre réservation chez {{location_name}} est annulée :\n\n{{items}}\n\nAu plaisir de vous revoir.",
      sms: "{{location_name}} : votre rendez-vous du {{date}}, {{time}} est annulé.",
    },
    es: {
      subject: "Tu reserva en {{location_name}} está cancelada",
      body: "Hola {{customer_first_name}}:\n\ntu reserva en {{location_name}} está cancelada:\n\n{{items}}\n\nEsperamos verte en otra ocasión.",
      sms: "{{location_name}}: tu cita del {{date}}, {{time}} está cancelada.",
    },
  },
  "booking-reminder": {
    en: {
      subject: "Reminder: {{date}} at {{time}}, {{location_name}}",
      body: "Hello {{customer_first_name}},\n\na reminder of your booking at {{location_name}} on {{date}} at {{time}}: {{service_names}} with {{staffer_first_name}}.\n\nChange or cancel: {{manage_url}}",
      sms: "Reminder: {{location_name}} {{date}}, {{time}}. {{manage_url}}",
    },
    de: {
      subject: "Erinnerung: {{date}} um {{time}}, {{location_name}}",
      body: "Hallo {{customer_first_name}},\n\nwir erinnern an Ihren Termin bei {{location_name}} am {{date}} um {{time}}: {{service_names}} bei {{staffer_first_name}}.\n\nÄndern oder absagen: {{manage_url}}",
      sms: "Erinnerung: {{location_name}} {{date}}, {{time}}. {{manage_url}}",
    },
    fr: {
      subject: "Rappel : {{date}} à {{time}}, {{location_name}}",
      body: "Bonjour {{customer_first_name}},\n\nun rappel de votre rendez-vous chez {{location_name}} le {{date}} à {{time}} : {{service_names}} avec {{staffer_first_name}}.\n\nModifier ou annuler : {{manage_url}}",
      sms: "Rappel : {{location_name}} {{date}}, {{time}}. {{manage_url}}",
    },
    es: {
      subject: "Recordatorio: {{date}} a las {{time}}, {{location_name}}",
      body: "Hola {{customer_first_name}}:\n\nte recordamos tu cita en {{location_name}} el {{date}} a las {{time}}: {{service_names}} con {{staffer_first_name}}.\n\nCambiar o cancelar: {{manage_url}}",
      sms: "Recordatorio: {{location_name}} {{date}}, {{time}}. {{manage_url}}",
    },
  },
  "waitlist-offer": {
    en: {
      subject: "A time opened up at {{location_name}}: {{date}}, {{time}}",
      body: "Hello {{customer_first_name}},\n\ngood news: a time you were waiting for opened up at {{location_name}}.\n\n{{items}}\n\nIt is held for you until {{offer_expires}}. Book it here: {{offer_url}}\n\nIf you do not book it by then, we offer it to the next person waiting.",
      sms: "{{location_name}}: {{date}}, {{time}} is free for you until {{offer_expires}}. Book: {{offer_url}}",
    },
    de: {
      subject: "Ein Termin ist frei geworden bei {{location_name}}: {{date}}, {{time}}",
      body: "Hallo {{customer_first_name}},\n\ngute Nachricht: ein Termin, auf den Sie gewartet haben, ist bei {{location_name}} frei geworden.\n\n{{items}}\n\nEr ist bis {{offer_expires}} für Sie reserviert. Hier buchen: {{offer_url}}\n\nBuchen Sie bis dahin nicht, bieten wir ihn der nächsten Person auf der Warteliste an.",
      sms: "{{location_name}}: {{date}}, {{time}} ist bis {{offer_expires}} für Sie frei. Buchen: {{offer_url}}",
    },
    fr: {
      subject: "Un créneau s'est libéré chez {{location_name}} : {{date}}, {{time}}",
      body: "Bonjour {{customer_first_name}},\n\nbonne nouvelle : un créneau que vous attendiez s'est libéré chez {{location_name}}.\n\n{{items}}\n\nIl vous est réservé jusqu'à {{offer_expires}}. Réservez-le ici : {{offer_url}}\n\nSans réservation d'ici là, nous le proposons à la personne suivante.",
      sms: "{{location_name}} : {{date}}, {{time}} est libre pour vous jusqu'à {{offer_expires}}. Réserver : {{offer_url}}",
    },
    es: {
      subject: "Se ha liberado una hora en {{location_name}}: {{date}}, {{time}}",
      body: "Hola {{customer_first_name}}:\n\nbuenas noticias: se ha liberado una hora que esperabas en {{location_name}}.\n\n{{items}}\n\nLa reservamos para ti hasta las {{offer_expires}}. Resérvala aquí: {{offer_url}}\n\nSi no la reservas antes, se la ofreceremos a la siguiente persona de la lista.",
      sms: "{{location_name}}: {{date}}, {{time}} libre para ti hasta las {{offer_expires}}. Reservar: {{offer_url}}",
    },
  },
  "payment-fee-charged": {
    en: {
      subject: "A fee for your booking at {{location_name}}",
      body: "Hello {{customer_first_name}},\n\na fee of {{fee}} was charged for {{fee_reason}}:\n\n{{items}}\n\nIf you have any questions, please contact {{location_name}}.",
      sms: "{{location_name}}: a fee of {{fee}} was charged for {{fee_reason}} ({{date}}, {{time}}).",
    },
    de: {
      subject: "Eine Gebühr für Ihre Buchung bei {{location_name}}",
      body: "Hallo {{customer_first_name}},\n\nfür {{fee_reason}} wurde eine Gebühr von {{fee}} berechnet:\n\n{{items}}\n\nBei Fragen wenden Sie sich bitte an {{location_name}}.",
      sms: "{{location_name}}: Gebühr von {{fee}} für {{fee_reason}} berechnet ({{date}}, {{time}}).",
    },
    fr: {
      subject: "Des frais pour votre réservation chez {{location_name}}",
      body: "Bonjour {{customer_first_name}},\n\ndes frais de {{fee}} ont été facturés pour {{fee_reason}} :\n\n{{items}}\n\nPour toute question, contactez {{location_name}}.",
      sms: "{{location_name}} : frais de {{fee}} facturés pour {{fee_reason}} ({{date}}, {{time}}).",
    },
    es: {
      subject: "Un cargo por tu reserva en {{location_name}}",
      body: "Hola {{customer_first_name}}:\n\nse ha cobrado un cargo de {{fee}} por {{fee_reason}}:\n\n{{items}}\n\nSi tienes alguna pregunta, contacta con {{location_name}}.",
      sms: "{{location_name}}: cargo de {{fee}} por {{fee_reason}} ({{date}}, {{time}}).",
    },
  },
};
