// Which address a request comes from. The socket's peer, unless that peer is a configured
// trusted proxy (HERALD_TRUSTED_PROXIES): then the X-Forwarded-For chain is read from the right,
// skipping trusted hops, and the first address no trusted proxy vouches for is the client. A
// header from anyone else is ignored, so a client cannot pick the bucket it is counted in.
import { BlockList, isIP } from "node:net";
import { parseTrustedProxy } from "../../config.ts";

export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  /** `entries`: addresses and CIDR ranges, IPv4 or IPv6; a malformed one throws, naming it. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const { address, family, prefix } = parseTrustedProxy(entry);
      const type = family === 6 ? "ipv6" : "ipv4";
      if (prefix === null) this.list.addAddress(address, type);
      else this.list.addSubnet(address, prefix, type);
    }
    this.empty = entries.length === 0;
  }

  trusts(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 6 ? "ipv6" : "ipv4");
  }

  /** The client behind `peer` (the socket's remote address), given the request's X-Forwarded-For. */
  clientOf(peer: string, forwardedFor: string | null): string {
    let client = unmapped(peer);
    if (this.empty || !forwardedFor || !this.trusts(client)) return client;
    const hops = forwardedFor.split(",").map((hop) => hop.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = unmapped(hops[i]!);
      // A hop that is no address at all ends what can be believed: the last trusted one stands.
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!this.trusts(hop)) return hop;
    }
    return client;
  }
}

/** An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; it is the same client as a.b.c.d. */
function unmapped(address: string): string {
  return address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
