import { useI18n } from "../i18n/context";
import { creditsLeft } from "./flow";
import type { PublicPackage } from "./types";

/** Above the steps while a package pays: which one, what it has left, whose phone books it. */
export function PackageBanner({ pkg, onDrop }: { pkg: PublicPackage; onDrop: () => void }) {
  const { t } = useI18n();
  return (
    <div class="package-banner" data-package={pkg.uuid}>
      <p>
        <strong>
          {t("package.booking_with", { name: pkg.name, left: String(creditsLeft(pkg)) })}
        </strong>
      </p>
      <p class="hint">{t("package.phone_hint")}</p>
      <button type="button" onClick={onDrop}>
        {t("package.drop")}
      </button>
    </div>
  );
}
