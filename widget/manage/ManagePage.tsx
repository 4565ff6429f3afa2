import { useEffect, useRef, useState } from "preact/hooks";
import type { Client } from "../api";
import { ApiFailure } from "../api";
import { describe } from "../failure";
import { useI18n } from "../i18n/context";
import type { MessageKey } from "../i18n/messages";
import { ContactHint, Frame } from "../page/Frame";
import { applyAccent, faceOfSalon } from "../page/salon";
import { Heading } from "../steps/Heading";
import { Notice, type NoticeState } from "../steps/Notice";
import { dateInZone, formatFullDateTime } from "../time";
import type { Alternative, SlotChoice } from "../types";
import { BookingFacts } from "./BookingFacts";
import {
  alternativesOf,
  cancel,
  freeStarts,
  loadView,
  refusal,
  reschedule,
  salonZone,
} from "./flow";
import { MoveStep } from "./MoveStep";
import { Packages } from "./Packages";
import type { ManagedView } from "./types";

type Mode = "view" | "confirm-cancel" | "move";

/** One booking, opened by the link in a customer's message: see it, cancel it, move it. */
export function ManagePage(props: { api: Client; token: string | null }) {
  const { api } = props;
  const { t, format } = useI18n();
  // After a move the API hands a fresh token (good until a day after the new end): the page
  // goes on with it, and puts it in the address so a reload opens the booking as it now is.
  const [token, setToken] = useState(props.token);
  const [view, setView] = useState<ManagedView | null>(null);
  const booking = view?.booking ?? null;
  // A link that cannot work: the page says so and offers nothing else.
  const [fatal, setFatal] = useState<MessageKey | null>(token ? null : "manage.no_token");
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [mode, setMode] = useState<Mode>("view");
  const [busy, setBusy] = useState(false);
  const [date, setDate] = useState("");
  const [slots, setSlots] = useState<SlotChoice[] | null>(null);
  const [alternatives, setAlternatives] = useState<Alternative[]>([]);
  const [chosen, setChosen] = useState<SlotChoice | null>(null);

  const refresh = () => {
    if (token) void loadView(api, token).then(setView, () => undefined);
  };

  /** A refusal of the manage API in the page's words; anything else as the widget says it. */
  const fail = (e: unknown, retry?: () => void) => {
    const key = refusal(e);
    if (key === "manage.invalid_token") return setFatal(key);
    if (!key) return setNotice({ ...describe(t, e), retry });
    const message =
      key === "manage.policy_window_passed" && face
        ? t("manage.policy_window_passed_named", { salon: face.name })
        : t(key);
    setNotice({ kind: key.startsWith("slot.") ? "conflict" : "error", message });
    // The policy or the booking changed under the page: show what holds now.
    if (e instanceof ApiFailure && e.code !== "slot_unavailable") {
      setMode("view");
      refresh();
    }
  };

  const start = () => {
    if (!token) return;
    setNotice(null);
    loadView(api, token)
      .then(setView)
      .catch((e) => fail(e, start));
  };
  useEffect(start, []);
  // A cancel or move keeps the view's salon: the header and help never leave the page.
  const face = faceOfSalon(view?.salon);
  useEffect(() => applyAccent(face?.accent_color), [face?.accent_color]);

  // Only the latest search may fill the list.
  const latest = useRef(0);
  const search = (day: string) => {
    if (!token || !booking) return;
    const mine = ++latest.current;
    setDate(day);
    setSlots(null);
    setChosen(null);
    freeStarts(api, token, day)
      .then((found) => {
        if (mine === latest.current) setSlots(found);
      })
      .catch((e) => {
        if (mine !== latest.current) return;
        setSlots([]);
        fail(e, () => search(day));
      });
  };

  const zone = view ? salonZone(view) : "";
  const today = view ? dateInZone(Date.now(), zone) : "";
  const openMove = () => {
    if (!booking) return;
    setNotice(null);
    setAlternatives([]);
    setMode("move");
    const day = dateInZone(booking.start_time, zone);
    search(day < today ? today : day);
  };

  const doCancel = async () => {
    if (!token || !view) return;
    setBusy(true);
    setNotice(null);
    try {
      const canceled = await cancel(api, token);
      setView({ ...view, booking: canceled });
      setMode("view");
      setNotice({ kind: "done", message: t("manage.canceled") });
    } catch (e) {
      fail(e, () => void doCancel());
    } finally {
      setBusy(false);
    }
  };

  const adopt = (fresh: string) => {
    if (fresh === token) return;
    setToken(fresh);
    const address = new URL(location.href);
    address.searchParams.set("token", fresh);
    history.replaceState(history.state, "", address);
  };

  const doMove = async () => {
    if (!token || !chosen || !view) return;
    setBusy(true);
    setNotice(null);
    try {
      const fresh = await reschedule(api, token, chosen.start, view);
      const moved = fresh.booking;
      setView(fresh);
      adopt(fresh.manage.token);
      setMode("view");
      setAlternatives([]);
      setNotice({
        kind: "done",
        message: t("manage.moved", {
          when: formatFullDateTime(moved.start_time, format, salonZone(fresh)),
        }),
      });
    } catch (e) {
      fail(e, () => void doMove());
      if (e instanceof ApiFailure && e.code === "slot_unavailable") {
        setAlternatives(alternativesOf(e));
        search(date);
      }
    } finally {
      setBusy(false);
    }
  };

  if (fatal)
    return (
      <Frame face={face}>
        <section>
          <Heading>{t("manage.heading")}</Heading>
          <Notice notice={{ kind: "error", message: t(fatal) }} />
        </section>
      </Frame>
    );
  if (!view || !booking)
    return (
      <section>
        <Heading>{t("manage.heading")}</Heading>
        {notice ? <Notice notice={notice} /> : <p role="status">{t("common.loading")}</p>}
      </section>
    );

  if (mode === "move")
    return (
      <Frame face={face}>
        <div class="steps">
          {notice && <Notice notice={notice} />}
          <MoveStep
            zone={zone}
            date={date}
            today={today}
            slots={slots}
            alternatives={alternatives}
            chosen={chosen}
            busy={busy}
            onDate={search}
            onChoose={setChosen}
            onMove={() => void doMove()}
            onBack={() => {
              setNotice(null);
              setMode("view");
            }}
          />
        </div>
      </Frame>
    );

  const { policy } = booking;
  return (
    <Frame face={face}>
      <section>
        <Heading>{t("manage.heading")}</Heading>
        {notice && <Notice notice={notice} />}
        <BookingFacts view={view} />
        {booking.is_canceled ? (
          notice?.kind !== "done" && <p class="summary">{t("manage.is_canceled")}</p>
        ) : mode === "confirm-cancel" ? (
          <div class="confirm" role="group" aria-labelledby="cancel-question">
            <p id="cancel-question">{t("manage.cancel_confirm")}</p>
            <div class="actions">
              <button type="button" disabled={busy} onClick={() => setMode("view")}>
                {t("manage.cancel_no")}
              </button>
              <button type="button" class="primary" disabled={busy} onClick={() => void doCancel()}>
                {t(busy ? "manage.canceling" : "manage.cancel_yes")}
              </button>
            </div>
          </div>
        ) : (
          <>
            <div class="manage-actions">
              {policy.is_changeable && (
                <button type="button" class="primary" onClick={openMove}>
                  {t("manage.move")}
                </button>
              )}
              {policy.is_cancelable && (
                <button
                  type="button"
                  onClick={() => {
                    setNotice(null);
                    setMode("confirm-cancel");
                  }}
                >
                  {t("manage.cancel")}
                </button>
              )}
            </div>
            {!policy.is_changeable && (
              <ContactHint
                face={face}
                plain="manage.not_changeable"
                named="manage.not_changeable_named"
              />
            )}
            {!policy.is_cancelable && (
              <ContactHint
                face={face}
                plain="manage.not_cancelable"
                named="manage.not_cancelable_named"
              />
            )}
          </>
        )}
        {view.location && (
          <Packages packages={view.packages ?? []} location={view.location.uuid} zone={zone} />
        )}
      </section>
    </Frame>
  );
}
