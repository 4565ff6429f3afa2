import { describe, expect, it } from "vitest";
import { isPrivateHost, webhookUrlProblem } from "../../../src/domain/webhooks/url";

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
  ])("refuses %s unless private targets are allowed", (url) => {
    expect(webhookUrlProblem(url, false)).toMatch(/Private/);
    expect(webhookUrlProblem(url, true)).toBeNull();
  });

  it.each([
    "https://hooks.example.com/x",
    "http://203.0.113.9:8080/cb",
    "https://172.32.0.1/",
    "https://[2001:db8::1]/",
  ])("accepts the public address %s", (url) => {
    expect(webhookUrlProblem(url, false)).toBeNull();
  });

  it("refuses other schemes, credentials and garbage whatever the setting", () => {
    expect(webhookUrlProblem("ftp://example.com", true)).toMatch(/http/);
    expect(webhookUrlProblem("javascript:alert(1)", true)).toMatch(/http/);
    expect(webhookUrlProblem("https://u:p@example.com", true)).toMatch(/credentials/);
    expect(webhookUrlProblem("example.com/hook", true)).toMatch(/absolute/);
  });

  it("treats trailing dots and case alike", () => {
    expect(isPrivateHost("LOCALHOST.")).toBe(true);
    expect(isPrivateHost("Example.COM")).toBe(false);
  });
});
