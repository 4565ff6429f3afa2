import { useEffect, useState } from "preact/hooks";
import type { Client } from "../api";
import type { MessageKey } from "../i18n/messages";
import type { Service } from "../types";
import { coveredServices, loadPackage, unusable } from "./flow";
import type { PublicPackage } from "./types";

export interface PackageChoice {
  /** The package paying, with the services it covers: what the widget offers meanwhile. */
  using: { pkg: PublicPackage; services: Service[] } | null;
  /** Why the package the widget was opened with does not pay (the widget books as usual). */
  problem: MessageKey | null;
  /** False while the package is read: the services step waits for it. */
  settled: boolean;
  /** Book without it (after a refusal): the whole catalogue again, paid as usual. */
  drop: () => void;
}

/** The package of `?package=<uuid>`, read with the widget's key, and whether it can pay. */
export function usePackage(
  api: Client,
  uuid: string | null | undefined,
  services: Service[] | null,
): PackageChoice {
  const [pkg, setPkg] = useState<PublicPackage | null>(null);
  const [failed, setFailed] = useState(false);
  const [dropped, setDropped] = useState(false);
  useEffect(() => {
    if (!uuid) return;
    // Any failure (unknown package, an API without packages, the network): book as usual.
    loadPackage(api, uuid).then(setPkg, () => setFailed(true));
  }, [uuid]);
  const drop = () => setDropped(true);
  if (!uuid || dropped) return { using: null, problem: null, settled: true, drop };
  if (failed) return { using: null, problem: "package.not_found", settled: true, drop };
  if (!pkg || !services) return { using: null, problem: null, settled: false, drop };
  const covered = coveredServices(pkg, services);
  const why = unusable(pkg, covered);
  return why
    ? { using: null, problem: why, settled: true, drop }
    : { using: { pkg, services: covered }, problem: null, settled: true, drop };
}
