import { useI18n } from "../i18n/context";

export interface NoticeState {
  /** `done`: a change went through (the manage page's cancel and move). */
  kind: "conflict" | "expired" | "network" | "error" | "done";
  message: string;
  retry?: () => void;
}

export function Notice({ notice }: { notice: NoticeState }) {
  const { t } = useI18n();
  return (
    <div class={`notice notice-${notice.kind}`} role="alert">
      <p>{notice.message}</p>
      {notice.retry && (
        <button type="button" onClick={notice.retry}>
          {t("common.try_again")}
        </button>
      )}
    </div>
  );
}
