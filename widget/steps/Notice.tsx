import { useI18n } from "../i18n/context";

export interface NoticeState {
  kind: "conflict" | "expired" | "network" | "error";
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
