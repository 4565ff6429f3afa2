import { describe, expect, it } from "vitest";
import { isPrivateHost, parseV6, webhookUrlProblem } from "../../../src/platform/rules/url";

describe("webhook URL rules", () => {
  it.each([
    "http://localhost/x",
    "http://api.localhost/x",
    "http://printer.local/",
    "http://db.internal/",
    "http://intranet/",
    "http://127.0.0.1/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.10/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:127.0.0.1]/",
    // Found in review: loopback and private IPv4 inside IPv6 forms, site-local, localdomain.
    "http://[::127.0.0.1]/",
    "http://[::10.0.0.1]/",
    "http://[::7f00:1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[64:ff9b::192.168.0.1]/",
    "http://[64:ff9b:1::8.8.8.8]/",
    "http://[2002:7f00:1::]/",
    "http://[2002:a00:1::1]/",
    "http://[2002:c0a8:101:1::1]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://[fec0::1]/",
    "http://[feff:ffff::1]/",
    "http://[::ffff:0:127.0.0.1]/",
    "http://[2001::1]/",
    "http://[100::1]/",
    "http://[::]/",
    "http://[ff02::1]/",
    "http://localhost.localdomain/",
    "http://LOCALHOST.LOCALDOMAIN./x",
    "http://db.localdomain/",
    // Found in the second audit: 192.0.0.0/24, the documentation ranges, and private names.
    "http://192.0.0.1/",
    "http://192.0.0.170/",
    "http://192.0.2.10/",
    "http://198.51.100.7/",
    "http://203.0.113.9:8080/cb",
    "http://198.18.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://[2001:db8::1]/",
    "http://[2001:db8:ffff::1]/",
    "http://[3fff::1]/",
    "http://[2001:2::1]/",
    "http://[::ffff:192.0.2.1]/",
    "http://[64:ff9b::203.0.113.5]/",
    "http://[2002:c000:0201::1]/",
    "http://[5f00::1]/",
    "http://[::8.8.8.8]/",
    "http://git.corp/",
    "http://nas.home/",
    "http://api.default.svc/",
    "http://svc/",
    "http://router.lan/",
    "http://wiki.intranet/",
    "http://vault.private/",
    "http://printer.home.arpa/",
    "http://1.0.0.127.in-addr.arpa/",
    "http://x.invalid/",
    "http://x.test/",
    "http://www.example/",
    "http://abc.onion/",
    "http://x.alt/",
    "http://mx.mail/",
    "http://grafana.internal./",
  ])("refuses %s unless private targets are allowed", (url) => {
    expect(webhookUrlProblem(url, false)).toMatch(/Private/);
    expect(webhookUrlProblem(url, true)).toBeNull();
  });

  it.each([
    "https://hooks.example.com/x",
    "http://8.8.4.4:8080/cb",
    "https://1.1.1.1/",
    "https://172.32.0.1/",
    "https://192.0.3.1/",
    "https://198.51.101.1/",
    "https://203.0.114.1/",
    "https://[2606:4700::1111]/",
    "https://[2001:4860:4860::8888]/",
    "https://[2001:db9::1]/",
    "https://corp.example.com/hook",
    "https://home.example.net/svc",
    "https://hooks.salon.corporation/",
    "https://[::ffff:8.8.8.8]/",
    "https://[64:ff9b::8.8.8.8]/",
    "https://[2002:808:808::1]/",
  ])("accepts the public address %s", (url) => {
    expect(webhookUrlProblem(url, false)).toBeNull();
  });

  it("refuses other schemes, credentials and garbage whatever the setting", () => {
    expect(webhookUrlProblem("ftp://example.com", true)).toMatch(/http/);
    expect(webhookUrlProblem("javascript:alert(1)", true)).toMatch(/http/);
    expect(webhookUrlProblem("https://u:p@example.com", true)).toMatch(/credentials/);
    expect(webhookUrlProblem("example.com/hook", true)).toMatch(/absolute/);
  });

  it.each([
    "http://localhost../",
    "http://127.0.0.1../",
    "http://a.b.corp../",
    "http://foo.localhost.%2e/",
  ])("refuses a name with an empty label (a second trailing dot) %s", (url) => {
    expect(webhookUrlProblem(url, false)).toMatch(/Private/);
  });

  it("treats trailing dots and case alike", () => {
    expect(isPrivateHost("LOCALHOST.")).toBe(true);
    expect(isPrivateHost("Example.COM")).toBe(false);
  });

  it("parses IPv6 literals in every written form", () => {
    expect(parseV6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseV6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseV6("::127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0, 0x7f00, 1]);
    expect(parseV6("64:ff9b::10.0.0.1")).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0xa00, 1]);
    expect(parseV6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseV6("fe80::")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 0]);
    for (const bad of ["1::2::3", "1:2:3", "12345::", "::1.2.3", "::256.0.0.1", "g::1"]) {
      expect(parseV6(bad), bad).toBeNull();
    }
    // Unparseable literals are refused rather than guessed at.
    expect(isPrivateHost("[1::2::3]")).toBe(true);
    expect(isPrivateHost("::ffff:127.0.0.1")).toBe(true);
  });
});
