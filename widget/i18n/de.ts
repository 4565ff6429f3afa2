import type { Catalogue } from "./en";

export const de: Catalogue = {
  "page.title": "Termin buchen",
  "page.needs_params":
    "Dieses Buchungsformular braucht workspace, location und key in seiner Adresse.",
  "common.loading": "Wird geladen…",
  "common.continue": "Weiter",
  "common.back": "Zurück",
  "common.try_again": "Erneut versuchen",
  "common.required_mark": " *",
  "common.optional_mark": " (optional)",
  "common.required_hint": "* Pflichtfeld",
  "error.network":
    "Wir konnten den Salon nicht erreichen. Bitte prüfen Sie Ihre Verbindung; Ihre Eingaben bleiben erhalten.",
  "error.generic": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
  "error.rate_limited":
    "Zu viele Versuche in kurzer Zeit. Bitte warten Sie einen Moment und versuchen Sie es erneut.",
  "error.too_many_bookings":
    "Über diese Verbindung wurden heute schon so viele Online-Buchungen gemacht, wie der Salon an einem Tag annimmt. Für weitere Termine rufen Sie bitte den Salon an.",
  "error.choice_too_big":
    "Der Salon kann diese Auswahl nicht online in einer Buchung annehmen (zu viele Leistungen oder zu lang). Bitte wählen Sie weniger Leistungen oder rufen Sie den Salon an.",
  "error.check_fields": "Bitte prüfen Sie die markierten Felder.",
  "error.check_field": "Bitte prüfen Sie diese Angabe.",
  "slot.expired": "Die Reservierung dieser Zeit ist abgelaufen. Bitte wählen Sie erneut eine Zeit.",
  "slot.taken_alternatives":
    "Diese Zeit wurde leider gerade vergeben. Diese Zeiten sind noch frei:",
  "slot.taken": "Diese Zeit wurde leider gerade vergeben. Bitte wählen Sie eine andere.",
  "services.heading": "Leistungen wählen",
  "services.none": "Hier können noch keine Leistungen online gebucht werden.",
  "services.legend": "Leistungen",
  "services.from_price": "ab {price}",
  "services.party_size": "Personen",
  "services.party_size_for": "Anzahl Personen für {service}",
  "staffer.heading": "Bei wem?",
  "staffer.legend": "Mitarbeiter:in",
  "staffer.anyone": "Egal, wer frei ist",
  "choice.with": "{services} bei {staffer}",
  "slot.heading": "Zeit wählen",
  "slot.free_instead": "Stattdessen frei",
  "slot.other_free_times": "Andere freie Zeiten",
  "slot.free_times": "Freie Zeiten",
  "slot.previous_day": "Vorheriger Tag",
  "slot.next_day": "Nächster Tag",
  "slot.date": "Datum",
  "slot.from_date": "Ab",
  "slot.your_zone": "Die Zeiten sind in Ihrer Zeitzone angegeben.",
  "slot.searching": "Freie Zeiten werden gesucht…",
  "slot.none": "An diesem Tag ist nichts frei. Bitte wählen Sie ein anderes Datum.",
  "details.heading": "Ihre Angaben",
  "details.hold": "Wir halten diese Zeit noch {time} für Sie frei.",
  "details.first_name": "Vorname",
  "details.middle_name": "Zweiter Vorname",
  "details.last_name": "Nachname",
  "details.phone": "Telefon",
  "details.email": "E-Mail",
  "details.comment": "Anmerkung",
  "details.first_name_missing": "Bitte geben Sie Ihren Vornamen ein.",
  "details.middle_name_missing": "Bitte geben Sie Ihren zweiten Vornamen ein.",
  "details.last_name_missing": "Bitte geben Sie Ihren Nachnamen ein.",
  "details.email_missing": "Bitte geben Sie Ihre E-Mail-Adresse ein.",
  "details.comment_missing": "Bitte geben Sie eine Anmerkung ein.",
  "details.phone_invalid": "Bitte geben Sie eine gültige Telefonnummer ein, z. B. +49 30 1234567.",
  "details.email_invalid": "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
  "details.book": "Buchen",
  "details.booking": "Wird gebucht…",
  "done.heading": "Ihr Termin ist gebucht",
  "done.add_to_calendar": "In meinen Kalender",
  "pay.heading": "Zahlung",
  "pay.deposit": "Anzahlung {amount} zahlen",
  "pay.prepay": "{amount} zahlen",
  "pay.card_on_file": "Karte hinterlegen",
  "pay.card_note":
    "Jetzt wird nichts abgebucht: Der Salon hinterlegt Ihre Karte für den Fall, dass eine der Gebühren unten anfällt.",
  "pay.late_cancel": "Kostenlose Stornierung bis {time} vorher; danach kostet sie {fee}.",
  "pay.free_until_start": "Kostenlose Stornierung bis zum Beginn des Termins.",
  "pay.no_show": "Nicht zu erscheinen kostet {fee}.",
  "pay.provider_note":
    "Sie zahlen auf der sicheren Seite des Zahlungsanbieters und kommen dann hierher zurück.",
  "pay.opening": "Zahlungsseite wird geöffnet…",
  "pay.unavailable":
    "Online-Zahlung ist gerade nicht möglich. Bitte versuchen Sie es gleich noch einmal oder rufen Sie den Salon an.",
  "pay.confirming": "Ihre Zahlung wird bestätigt…",
  "pay.still_confirming":
    "Ihre Zahlung ist noch nicht bestätigt. Bitte warten Sie einen Moment und versuchen Sie es erneut.",
  "pay.expired":
    "Die Zahlungsseite ist abgelaufen, bevor gezahlt wurde. Bitte wählen Sie erneut eine Uhrzeit.",
  "pay.lost":
    "Leider wurde Ihre Zeit vergeben, bevor Ihre Zahlung ankam; das Geld geht auf Ihre Karte zurück. Bitte wählen Sie eine andere Uhrzeit.",
  "done.paid": "Bezahlt: {amount}",
  "done.card_saved": "Ihre Karte ist für die Gebühren laut Richtlinie des Salons hinterlegt.",
  "manage.title": "Ihr Termin",
  "manage.heading": "Ihr Termin",
  "manage.no_token":
    "Dieser Link ist unvollständig. Bitte öffnen Sie den Link aus Ihrer Nachricht erneut.",
  "manage.invalid_token":
    "Dieser Link ist ungültig oder abgelaufen. Bitte wenden Sie sich an den Salon, um Ihren Termin zu ändern.",
  "manage.services": "Leistungen",
  "manage.staffer": "Bei",
  "manage.when": "Wann",
  "manage.salon_zone": "Die Zeiten sind in der Zeitzone des Salons angegeben ({zone}).",
  "manage.policy": "Buchungsbedingungen",
  "manage.cancellation_policy": "Stornierung",
  "manage.change_policy": "Änderungen",
  "manage.is_canceled": "Dieser Termin ist storniert.",
  "manage.cancel": "Termin stornieren",
  "manage.cancel_confirm": "Möchten Sie diesen Termin wirklich stornieren?",
  "manage.cancel_yes": "Ja, stornieren",
  "manage.cancel_no": "Nein, behalten",
  "manage.canceling": "Wird storniert…",
  "manage.canceled": "Ihr Termin ist storniert.",
  "manage.not_cancelable":
    "Dieser Termin kann nicht mehr online storniert werden. Bitte wenden Sie sich an den Salon.",
  "manage.move": "Auf eine andere Zeit verschieben",
  "manage.move_heading": "Neue Zeit wählen",
  "manage.move_to": "Auf {when} verschieben",
  "manage.moving": "Wird verschoben…",
  "manage.moved": "Ihr Termin ist verschoben auf {when}.",
  "manage.not_changeable":
    "Dieser Termin kann nicht mehr online verschoben werden. Bitte wenden Sie sich an den Salon.",
  "manage.policy_window_passed":
    "Für eine Online-Änderung dieses Termins ist es zu spät. Bitte wenden Sie sich an den Salon.",
  "manage.booking_closed":
    "Dieser Termin kann nicht mehr geändert werden: Er ist storniert oder hat bereits stattgefunden.",
  "offer.title": "Ein Termin für Sie",
  "offer.heading": "Ein Termin ist für Sie frei geworden",
  "offer.no_token":
    "Dieser Link ist unvollständig. Bitte öffnen Sie den Link aus Ihrer Nachricht erneut.",
  "offer.invalid_token":
    "Dieser Angebotslink ist ungültig (vielleicht hat ihn ein neueres Angebot ersetzt). Bitte wenden Sie sich an den Salon.",
  "offer.gone":
    "Dieses Angebot ist beendet: Es wurde gebucht, oder seine Zeit ist abgelaufen und ging an die nächste Person auf der Warteliste.",
  "offer.held_until": "Für Sie reserviert bis {time}.",
  "offer.book": "Diesen Termin buchen",
  "offer.booking": "Wird gebucht…",
  "offer.booked": "Gebucht! Bis {when}.",
  "offer.last_name": "Nachname",
  "offer.email": "E-Mail",
  // Monatsansicht, Zusammenfassung, Bestätigung und Auftritt des Salons im Buchungs-Widget.
  "slot.previous_month": "Vorheriger Monat",
  "slot.next_month": "Nächster Monat",
  "slot.day_free": "{day}, freie Zeiten",
  "slot.day_full": "{day}, keine freien Zeiten",
  "slot.keys_hint": "Mit den Pfeiltasten wechseln Sie zwischen Tagen und zwischen Zeiten.",
  "slot.none_ahead":
    "In den nächsten {months} Monaten gibt es keine freien Zeiten. Bitte rufen Sie den Salon an.",
  "slot.none_in_month":
    "In diesem Monat gibt es keine freien Zeiten. Bitte versuchen Sie den nächsten.",
  "slot.times_on": "Freie Zeiten am {day}",
  "slot.first_start_on": "Erster freier Beginn am {day}, alle Leistungen nacheinander",
  "summary.heading": "Ihre Auswahl",
  "summary.services": "Leistungen",
  "summary.party": "{service}, {seats} Personen",
  "summary.staffer": "Bei",
  "summary.any_staffer": "Beliebige Mitarbeiterin oder beliebiger Mitarbeiter",
  "summary.when": "Wann",
  "summary.duration": "Dauer",
  "summary.price": "Preis",
  "summary.due_now": "Jetzt fällig",
  "done.manage": "Buchung verwalten oder stornieren",
  "done.sent_to": "Eine Bestätigung wurde an {to} gesendet.",
  "face.logo": "Logo von {name}",
  "face.help": "Fragen? So erreichen Sie den Salon",
  "face.call": "{phone} anrufen",
  // Die Verwaltungs- und Angebotsseite: der Salon mit Namen, wo die Seite an ihn verweist.
  "manage.not_cancelable_named":
    "Dieser Termin kann nicht mehr online storniert werden. Bitte wenden Sie sich an {salon}.",
  "manage.not_changeable_named":
    "Dieser Termin kann nicht mehr online verschoben werden. Bitte wenden Sie sich an {salon}.",
  "manage.policy_window_passed_named":
    "Für eine Online-Änderung dieses Termins ist es zu spät. Bitte wenden Sie sich an {salon}.",
  "offer.ended_heading": "Ihr Angebot von der Warteliste",
  "offer.yours_heading": "Ihr Termin",
  "offer.yours": "Sie haben diesen Termin über Ihr Angebot von der Warteliste gebucht.",
  "offer.manage": "Termin ansehen, verschieben oder stornieren",
  // Packages: the manage page lists them, the widget books with one.
  "manage.packages": "Ihre Pakete",
  "manage.package_left": "{left} von {total} übrig",
  "manage.package_reserved": "{count} für kommende Termine vorgemerkt",
  "manage.package_for": "Für: {services}",
  "manage.package_valid_until": "Gültig bis {date}",
  "manage.package_used_up": "Derzeit ist nichts mehr zum Buchen übrig.",
  "manage.package_past_due":
    "Die Zahlung für die Verlängerung ist fehlgeschlagen. Bitte wenden Sie sich an den Salon.",
  "manage.package_book": "Mit diesem Paket buchen",
  "manage.package_book_elsewhere":
    "Um damit zu buchen, nutzen Sie die Online-Buchung des Salons oder wenden Sie sich an den Salon.",
  "package.drop": "Ohne Paket buchen",
  "package.booking_with": "Sie buchen mit: {name} ({left} übrig)",
  "package.phone_hint":
    "Bitte geben Sie die Telefonnummer an, mit der Sie das Paket gekauft haben.",
  "package.covered": "Mit Ihrem Paket bezahlt",
  "package.not_found":
    "Dieses Paket wurde nicht gefunden. Sie können trotzdem wie gewohnt buchen und bezahlen.",
  "package.inactive":
    "Mit diesem Paket kann nichts mehr gebucht werden. Sie können trotzdem wie gewohnt buchen und bezahlen.",
  "package.no_services":
    "Keine Leistung dieses Pakets ist hier online buchbar. Sie können trotzdem wie gewohnt buchen und bezahlen.",
  "package.unavailable":
    "Ihr Paket kann diesen Termin nicht mehr bezahlen: Es ist aufgebraucht oder abgelaufen. Bitte rufen Sie den Salon an oder buchen Sie ohne Paket.",
  "package.refused":
    "Dieses Paket kann diesen Termin nicht bezahlen: Geben Sie die Telefonnummer an, mit der Sie es gekauft haben, und wählen Sie eine Leistung, die es abdeckt.",
};
