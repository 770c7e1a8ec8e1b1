// How the package's tests run the README's Playwright examples: against
// the testing page (`BASE_URL`, served by the end-to-end test), in Debian's
// Chromium (`CHROMIUM`): Playwright's own browser download is not used.
export default {
  testDir: "./playwright",
  workers: 1,
  timeout: 30_000,
  reporter: "line",
  use: {
    baseURL: process.env.BASE_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
};
