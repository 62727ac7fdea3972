// The attachment benchmark's downloaders, in their own process so their CPU (receiving 10 MiB
// bodies back to back) never delays the query being measured. Started by download-load.ts.
// DOWNLOAD_URL, DOWNLOAD_TOKEN (optional) and DOWNLOADERS (how many at once). Prints
// `DOWNLOADING` once every downloader has its first response, runs until stdin closes, then
// prints `DOWNLOADS <completed>` and exits.
const url = process.env.DOWNLOAD_URL!;
const token = process.env.DOWNLOAD_TOKEN;
const count = Number(process.env.DOWNLOADERS ?? 4);
const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};

let stop = false;
let completed = 0;
let started = 0;

async function downloader(): Promise<void> {
  let first = true;
  while (!stop) {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`download answered ${response.status}`);
    if (first && ++started === count) console.log("DOWNLOADING");
    first = false;
    await response.arrayBuffer();
    completed++;
  }
}

const running = Promise.all(Array.from({ length: count }, downloader));
process.stdin.resume();
process.stdin.once("end", () => {
  stop = true;
  void running.then(
    () => {
      console.log(`DOWNLOADS ${completed}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
running.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
