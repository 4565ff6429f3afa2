import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiFailure, type Client } from "./api";
import { describe } from "./failure";
import {
  ALL_OPTIONAL,
  book,
  bookingRefusal,
  type Customer,
  customerFields,
  type Details,
  hold,
  loadBookingForm,
  loadCatalogue,
  loadFace,
  LOOK_AHEAD_MONTHS,
  openMonth,
  performersOfAll,
  release,
  searchMonth,
  type Selection,
} from "./flow";
import { useI18n } from "./i18n/context";
import type { MessageKey, Translate } from "./i18n/messages";
import { type ReturnMarker, returnMarker, startCheckout } from "./pay/checkout";
import { type Comeback, comeBack } from "./pay/comeback";
import { heldChoice } from "./pay/restore";
import { forget, keep, resume } from "./pay/resume";
import { paidWords } from "./pay/terms";
import { firstFreeDay, monthOf } from "./month";
import { phoneRules } from "./phone-lazy";
import { DetailsStep } from "./steps/DetailsStep";
import { DoneStep } from "./steps/DoneStep";
import { SalonHeader, SalonHelp } from "./steps/Face";
import { Notice, type NoticeState } from "./steps/Notice";
import { PayStep } from "./steps/PayStep";
import { packageRefusal } from "./package/flow";
import { PackageBanner } from "./package/PackageBanner";
import { usePackage } from "./package/usePackage";
import { ServicesStep } from "./steps/ServicesStep";
import { SlotStep } from "./steps/SlotStep";
import { StafferStep } from "./steps/StafferStep";
import { Summary } from "./steps/Summary";
import { browserZone, localDate } from "./time";
import type {
  Alternative,
  Booking,
  BookingForm,
  Reservation,
  SalonFace,
  Service,
  SlotChoice,
  Staffer,
} from "./types";

/** `returning`: back from the provider's page, reading what became of the payment. */
type Step = "services" | "staffer" | "slot" | "details" | "pay" | "returning" | "done";

const EMPTY: Details = {
  first_name: "",
  last_name: "",
  middle_name: "",
  phone: "",
  email: "",
  comment: "",
};

/** Server field names (422 `errors`) → form fields. */
const SERVER_FIELDS: Record<string, keyof Details> = {
  customer_first_name: "first_name",
  customer_last_name: "last_name",
  customer_middle_name: "middle_name",
  customer_phone: "phone",
  customer_email: "email",
  booking_comment: "comment",
};

const fullName = (s: Staffer) => [s.first_name, s.last_name].filter(Boolean).join(" ");

function describeChoice(t: Translate, services: Service[], staffers: Staffer[], staffer: string) {
  const names = services.map((s) => s.name).join(" + ");
  const who = staffers.find((s) => s.uuid === staffer);
  return who ? t("choice.with", { services: names, staffer: fullName(who) }) : names;
}

/** What the widget loads before its first step: the catalogue, the form, the salon's face. */
export interface Start {
  catalogue: { services: Service[]; staffers: Staffer[] };
  form: BookingForm;
  face: SalonFace | null;
}

export const loadStart = (api: Client, location: string): Promise<Start> =>
  Promise.all([loadCatalogue(api, location), loadBookingForm(api), loadFace(api, location)]).then(
    ([catalogue, form, face]) => ({ catalogue, form, face }),
  );

/** The brand's accent on every accent-coloured part (the API vouches white text reads on it). */
function applyAccent(color: string | null) {
  if (!color) return;
  const root = document.documentElement.style;
  root.setProperty("--accent", color);
  root.setProperty("--accent-fg", "#ffffff");
}

/** What a required field says when left empty. */
const MISSING: Record<Exclude<keyof Details, "first_name" | "phone">, MessageKey> = {
  last_name: "details.last_name_missing",
  middle_name: "details.middle_name_missing",
  email: "details.email_missing",
  comment: "details.comment_missing",
};

/** Why a return from the provider's page finds nothing left to pay for. */
const GONE: Record<Extract<Comeback, { kind: "gone" }>["why"], MessageKey> = {
  expired: "pay.expired",
  hold_expired: "slot.expired",
  lost: "pay.lost",
};

/** A month change this soon after the last one waits this long before it is searched. */
const PAGING_SETTLE_MS = 300;

export function App({
  api,
  location,
  first,
  packageUuid,
}: {
  api: Client;
  location: string;
  /** The first load, started before the page's language had loaded. */
  first?: Promise<Start>;
  /** `?package=<uuid>`: a customer package pays for what is booked. */
  packageUuid?: string | null;
}) {
  const { t, format } = useI18n();
  const describe_ = (e: unknown) => describe(t, e);
  const zone = useMemo(browserZone, []);
  const today = useMemo(() => localDate(new Date()), []);
  const [step, setStep] = useState<Step>("services");
  const [catalogue, setCatalogue] = useState<{ services: Service[]; staffers: Staffer[] } | null>(
    null,
  );
  const [form, setForm] = useState<BookingForm>(ALL_OPTIONAL);
  const [selected, setSelected] = useState<string[]>([]);
  const [staffer, setStaffer] = useState("");
  const [seats, setSeats] = useState<Record<string, number>>({});
  const [face, setFace] = useState<SalonFace | null>(null);
  const [month, setMonth] = useState(monthOf(today));
  /** The shown month's free starts by day; null while it is searched. */
  const [days, setDays] = useState<Map<string, SlotChoice[]> | null>(null);
  const [date, setDate] = useState<string | null>(null);
  const [emptyMonths, setEmptyMonths] = useState(0);
  const [alternatives, setAlternatives] = useState<Alternative[]>([]);
  const [chosen, setChosen] = useState<SlotChoice | null>(null);
  const [reservation, setReservation] = useState<Reservation | null>(null);
  const [details, setDetails] = useState<Details>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Details, string>>>({});
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  const [bookings, setBookings] = useState<Booking[]>([]);
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [paid, setPaid] = useState<string | undefined>(undefined);
  // On the way to the provider's page the hold must outlive this page.
  const paying = useRef(false);

  const credit = usePackage(api, packageUuid, catalogue?.services ?? null);
  const using = credit.using;
  const selection: Selection = {
    location,
    services: selected,
    staffer,
    zone,
    seats,
    ...(using ? { package: using.pkg.uuid } : {}),
  };

  const start = (loading = loadStart(api, location)) => {
    setNotice(null);
    loading
      .then((loaded) => {
        setCatalogue(loaded.catalogue);
        setForm(loaded.form);
        setFace(loaded.face);
        applyAccent(loaded.face?.accent_color ?? null);
      })
      .catch((e) => setNotice({ ...describe_(e), retry: () => start() }));
  };
  useEffect(() => {
    start(first);
    const marker = returnMarker(window.location.hash);
    if (marker) void returnFrom(marker);
    // Back from the provider's page through the browser's history: this page again, as it was.
    const shown = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      paying.current = false;
      setBusy(false);
    };
    addEventListener("pageshow", shown);
    return () => removeEventListener("pageshow", shown);
  }, []);

  // A visitor who leaves with a time held gives it back to the others at once.
  useEffect(() => {
    if (!reservation) return;
    const leave = () => {
      if (!paying.current) void release(api, reservation, true);
    };
    addEventListener("pagehide", leave);
    return () => removeEventListener("pagehide", leave);
  }, [reservation]);

  // One answer per month and choice: the chosen day's times come from it, no request per day.
  const months = useRef(new Map<string, Map<string, SlotChoice[]>>());
  const choiceKey = JSON.stringify([location, selected, staffer, seats]);
  // Only the latest search may fill the month: an answer for a month left meanwhile is dropped.
  const latestSearch = useRef(0);
  const lastPaged = useRef(0);
  const failed = (search: number, retry: () => void) => (e: unknown) => {
    if (search !== latestSearch.current) return;
    setDays(new Map());
    setNotice({ ...describe_(e), retry });
  };

  /** A month, its day `keep` still chosen when it still has free times, else its first free day. */
  const showMonth = (shown: string, keep: string | null) => {
    const search = ++latestSearch.current;
    setMonth(shown);
    setEmptyMonths(0);
    const show = (found: Map<string, SlotChoice[]>) => {
      if (search !== latestSearch.current) return;
      setDays(found);
      setDate(keep && found.has(keep) ? keep : firstFreeDay(found, today));
    };
    const cached = months.current.get(`${choiceKey}|${shown}`);
    if (cached) return show(cached);
    setDays(null);
    const ask = () =>
      searchMonth(api, selection, shown, today)
        .then((found) => {
          months.current.set(`${choiceKey}|${shown}`, found);
          show(found);
        })
        .catch(failed(search, () => showMonth(shown, keep)));
    // Paging quickly (a held › key) asks only for the month the customer stops on: each
    // month passed by within the settle time is never searched (the visitor's rate limit).
    const quick = Date.now() - lastPaged.current < PAGING_SETTLE_MS;
    lastPaged.current = Date.now();
    if (!quick) return void ask();
    setTimeout(() => {
      if (search === latestSearch.current) void ask();
    }, PAGING_SETTLE_MS);
  };

  /** The date step opens on the first day with free time, a few months ahead at most. */
  const openSlots = () => {
    const search = ++latestSearch.current;
    setMonth(monthOf(today));
    setDays(null);
    setDate(null);
    setEmptyMonths(0);
    openMonth(api, selection, today, (m, found) => months.current.set(`${choiceKey}|${m}`, found))
      .then((opened) => {
        if (search !== latestSearch.current) return;
        setMonth(opened.month);
        setDays(opened.days);
        setDate(opened.day);
        setEmptyMonths(opened.day ? 0 : LOOK_AHEAD_MONTHS);
      })
      .catch(failed(search, openSlots));
  };

  /** Back to the times: fresh, as they may have changed; the day chosen stays chosen. */
  const goToSlots = (keepNotice = false) => {
    if (!keepNotice) {
      setNotice(null);
      setAlternatives([]);
    }
    setStep("slot");
    months.current.clear();
    if (date) showMonth(monthOf(date), date);
    else openSlots();
  };

  /** A conflict keeps everything typed: the customer picks another time and books again. */
  const onConflict = (e: ApiFailure) => {
    setReservation(null);
    setChosen(null);
    setAlternatives(e.alternatives ?? []);
    setNotice({
      kind: e.code === "reservation_expired" ? "expired" : "conflict",
      message: t(
        e.code === "reservation_expired"
          ? "slot.expired"
          : e.alternatives?.length
            ? "slot.taken_alternatives"
            : "slot.taken",
      ),
    });
    goToSlots(true);
  };

  const pick = async (slot: SlotChoice) => {
    // The phone rules (the widget's heaviest part) are asked for as a time is picked: they load
    // beside the hold and while the customer types, so the details step never waits for them,
    // and nothing the customer waits for before the first times has to carry them.
    phoneRules().catch(() => undefined);
    setBusy(true);
    setNotice(null);
    try {
      await release(api, reservation);
      setReservation(null);
      const held = await hold(api, selection, slot);
      setReservation(held);
      setChosen(slot);
      setAlternatives([]);
      setStep("details");
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 409) onConflict(e);
      else setNotice({ ...describe_(e), retry: () => void pick(slot) });
    } finally {
      setBusy(false);
    }
  };

  const validate = async () => {
    const { browserCountry, normalisePhone } = await phoneRules();
    const found: Partial<Record<keyof Details, string>> = {};
    if (!details.first_name.trim()) found.first_name = t("details.first_name_missing");
    const phone = normalisePhone(details.phone, browserCountry(navigator.languages));
    if (!phone) found.phone = t("details.phone_invalid");
    const needs = (field: keyof BookingForm, key: keyof typeof MISSING) => {
      if (form[field] === "required" && !details[key].trim()) found[key] = t(MISSING[key]);
    };
    needs("customer_last_name", "last_name");
    needs("customer_middle_name", "middle_name");
    needs("customer_email", "email");
    needs("booking_comment", "comment");
    if (
      form.customer_email !== "hidden" &&
      details.email.trim() &&
      !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(details.email.trim())
    )
      found.email = t("details.email_invalid");
    setErrors(found);
    return Object.keys(found).length === 0 ? phone : null;
  };

  const submit = async () => {
    if (!chosen) return;
    let phone: string | null;
    try {
      phone = await validate();
    } catch (e) {
      setNotice({ ...describe_(e), retry: () => void submit() });
      return;
    }
    if (!phone) return;
    // The salon takes money (or a card) online first: the provider's event makes the booking.
    // A package pays: nothing is due online, the booking goes direct with its credit.
    if (reservation?.payment && !using) {
      setCustomer({ ...details, phone_e164: phone });
      setNotice(null);
      setStep("pay");
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      setBookings(
        await book(api, selection, chosen, reservation, { ...details, phone_e164: phone }, form),
      );
      setReservation(null);
      setStep("done");
    } catch (e) {
      const refused = packageRefusal(e) ?? bookingRefusal(e);
      // The package is another customer's (by phone): the phone is the field to check.
      if (refused === "package.refused") setErrors({ phone: t("package.phone_hint") });
      if (refused) setNotice({ kind: "error", message: t(refused) });
      else if (e instanceof ApiFailure && e.status === 409) onConflict(e);
      else if (!markFields(e)) setNotice({ ...describe_(e), retry: () => void submit() });
    } finally {
      setBusy(false);
    }
  };

  /** A 422 on the customer's fields marks them on the details step; false for anything else. */
  const markFields = (e: unknown) => {
    if (!(e instanceof ApiFailure && e.status === 422 && Object.keys(e.fields).length > 0))
      return false;
    const found: Partial<Record<keyof Details, string>> = {};
    for (const [key, messages] of Object.entries(e.fields)) {
      const field = SERVER_FIELDS[key];
      // The API's words are English: the field is marked and the page says it in its language.
      if (field && messages.length > 0) found[field] = t("error.check_field");
    }
    setErrors(found);
    setNotice({ kind: "error", message: t("error.check_fields") });
    return true;
  };

  /** To the provider's hosted page, in this tab; it sends the customer back to this page. */
  const pay = async () => {
    if (!reservation || !customer || !chosen) return;
    setBusy(true);
    setNotice(null);
    try {
      const fields = customerFields(selection, customer, form);
      const checkout = await startCheckout(api, reservation.uuid, fields, window.location.href);
      keep(reservation.uuid, { selection, chosen, details });
      paying.current = true;
      window.location.assign(checkout.checkout_url);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiFailure && e.status === 409) onConflict(e);
      else if (markFields(e)) setStep("details");
      else if (e instanceof ApiFailure && e.code === "payments_unavailable")
        setNotice({ kind: "error", message: t("pay.unavailable"), retry: () => void pay() });
      else setNotice({ ...describe_(e), retry: () => void pay() });
    }
  };

  /** Back from the provider's page: the confirmation, the pay step again, or a time to pick. */
  const returnFrom = async (marker: ReturnMarker) => {
    setStep("returning");
    setNotice(null);
    const kept = resume(marker.reservation);
    if (kept) {
      setSelected(kept.selection.services);
      setStaffer(kept.selection.staffer);
      setSeats(kept.selection.seats ?? {});
      setChosen(kept.chosen);
      setDetails(kept.details);
      setDate(localDate(new Date(kept.chosen.start)));
      setMonth(monthOf(localDate(new Date(kept.chosen.start))));
    }
    let outcome: Comeback;
    try {
      outcome = await comeBack(api, marker);
    } catch (e) {
      setNotice({ ...describe_(e), retry: () => void returnFrom(marker) });
      return;
    }
    if (outcome.kind === "booked") {
      forget(marker.reservation);
      setBookings([outcome.booking]);
      setPaid(outcome.terms ? paidWords(outcome.terms, format, t) : undefined);
      setStep("done");
    } else if (outcome.kind === "pending") {
      setNotice({
        kind: "error",
        message: t("pay.still_confirming"),
        retry: () => void returnFrom(marker),
      });
    } else if (outcome.kind === "held") {
      await resumeHold(outcome.reservation, kept?.details ?? null);
    } else {
      forget(marker.reservation);
      setNotice({ kind: "expired", message: t(GONE[outcome.why]) });
      // What was chosen stays chosen (this render's selection is not yet the kept one).
      setStep("services");
    }
  };

  /** The hold still stands: its pay step with what was typed, else the details to type again. */
  const resumeHold = async (held: Reservation, typed: Details | null) => {
    setReservation(held);
    const choice = typed ? null : heldChoice(held);
    if (choice) {
      setSelected(choice.services);
      setStaffer(choice.staffer);
      setSeats(choice.seats);
      setChosen(choice.chosen);
    }
    const rules = typed ? await phoneRules().catch(() => null) : null;
    const phone =
      typed &&
      rules &&
      rules.normalisePhone(typed.phone, rules.browserCountry(navigator.languages));
    if (typed && phone) {
      setCustomer({ ...typed, phone_e164: phone });
      setStep("pay");
    } else setStep("details");
  };

  /** Back to every service, paid as usual: the package is put aside. */
  const dropPackage = () => {
    credit.drop();
    void release(api, reservation);
    setReservation(null);
    setSelected([]);
    setNotice(null);
    setStep("services");
  };

  if (!catalogue || !credit.settled)
    return notice ? <Notice notice={notice} /> : <p role="status">{t("common.loading")}</p>;
  // In the order chosen: a cart runs its services in this order.
  const chosenServices = selected.flatMap((uuid) =>
    catalogue.services.filter((s) => s.uuid === uuid),
  );
  const performers = performersOfAll(catalogue.staffers, chosenServices);
  const who = catalogue.staffers.find((s) => s.uuid === staffer);
  const summary = (start: string | null, level?: 2 | 3) => (
    <Summary
      services={chosenServices}
      seats={seats}
      staffer={who ? fullName(who) : null}
      start={start}
      payment={using ? null : (reservation?.payment ?? null)}
      covered={using ? t("package.covered") : undefined}
      level={level}
    />
  );

  return (
    <div class="steps">
      {face && <SalonHeader face={face} />}
      {using && step !== "done" && <PackageBanner pkg={using.pkg} onDrop={dropPackage} />}
      {credit.problem && step === "services" && (
        <Notice notice={{ kind: "error", message: t(credit.problem) }} />
      )}
      {notice && <Notice notice={notice} />}
      {["staffer", "slot", "details", "pay"].includes(step) && summary(chosen?.start ?? null)}
      {step === "services" && (
        <ServicesStep
          services={using ? using.services : catalogue.services}
          covered={using ? t("package.covered") : undefined}
          selected={selected}
          onToggle={(uuid) =>
            setSelected((s) => (s.includes(uuid) ? s.filter((x) => x !== uuid) : [...s, uuid]))
          }
          seats={seats}
          onSeats={(uuid, n) => setSeats((s) => ({ ...s, [uuid]: n }))}
          onNext={() => {
            if (!performers.some((p) => p.uuid === staffer)) setStaffer("");
            setStep("staffer");
          }}
        />
      )}
      {step === "staffer" && (
        <StafferStep
          staffers={performers}
          selected={staffer}
          onSelect={setStaffer}
          onBack={() => setStep("services")}
          onNext={() => {
            setNotice(null);
            setAlternatives([]);
            setStep("slot");
            months.current.clear();
            openSlots();
          }}
        />
      )}
      {step === "slot" && (
        <SlotStep
          month={month}
          today={today}
          days={days}
          date={date}
          emptyMonths={emptyMonths}
          cart={selected.length > 1}
          alternatives={alternatives}
          busy={busy}
          onMonth={(m) => showMonth(m, date)}
          onDate={setDate}
          onPick={(s) => void pick(s)}
          onBack={() => {
            setNotice(null);
            setStep("staffer");
          }}
        />
      )}
      {step === "details" && chosen && (
        <DetailsStep
          form={form}
          details={details}
          errors={errors}
          start={chosen.start}
          what={describeChoice(t, chosenServices, catalogue.staffers, staffer)}
          expiresAt={reservation?.expires_at ?? null}
          paysNext={Boolean(reservation?.payment) && !using}
          busy={busy}
          onChange={(name, value) => setDetails((d) => ({ ...d, [name]: value }))}
          onExpire={() =>
            onConflict(new ApiFailure(409, "reservation_expired", "Expired.", {}, null))
          }
          onSubmit={() => void submit()}
          onBack={() => {
            void release(api, reservation);
            setReservation(null);
            goToSlots();
          }}
        />
      )}
      {step === "pay" && chosen && reservation?.payment && (
        <PayStep
          terms={reservation.payment}
          what={describeChoice(t, chosenServices, catalogue.staffers, staffer)}
          start={chosen.start}
          expiresAt={reservation.expires_at}
          busy={busy}
          onExpire={() =>
            onConflict(new ApiFailure(409, "reservation_expired", "Expired.", {}, null))
          }
          onPay={() => void pay()}
          onBack={() => {
            setNotice(null);
            setStep("details");
          }}
        />
      )}
      {step === "returning" && !notice && (
        <p role="status">
          {t(
            returnMarker(window.location.hash)?.kind === "paid"
              ? "pay.confirming"
              : "common.loading",
          )}
        </p>
      )}
      {step === "done" && (
        <DoneStep
          bookings={bookings}
          paid={paid}
          summary={summary(bookings[0]?.start_time ?? chosen?.start ?? null, 3)}
        />
      )}
      {face && <SalonHelp face={face} />}
    </div>
  );
}
