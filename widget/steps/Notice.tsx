export interface NoticeState {
  kind: "conflict" | "expired" | "network" | "error";
  message: string;
  retry?: () => void;
}

export function Notice({ notice }: { notice: NoticeState }) {
  return (
    <div class={`notice notice-${notice.kind}`} role="alert">
      <p>{notice.message}</p>
      {notice.retry && (
        <button type="button" onClick={notice.retry}>
          Try again
        </button>
      )}
    </div>
  );
}
