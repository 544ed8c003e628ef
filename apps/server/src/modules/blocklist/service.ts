/**
 * Blacklisted e-mail domains and IP addresses or ranges (issue 21: the block page lists accounts, e-mail domains
 * and IPs). A request from a blocked address is refused with 408 (account disabled); a blocked domain cannot ask
 * for a code, register or log in (408). Rules are cached per process for a few seconds.
 */
import { BlockList, isIP } from 'node:net';
import { AppError, Codes } from '../../errors.ts';
import type { BlocklistRepo, BlockRule, RuleKind } from './ports.ts';

export type { BlocklistRepo, BlockRule, RuleKind };

const DOMAIN = /^(?=.{3,191}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CACHE_MS = 5000;

/** Canonical form of a rule value, or a 400 saying what is wrong. */
export function normaliseRule(kind: RuleKind, raw: string): string {
  const v = raw.trim().toLowerCase();
  if (kind === 'domain') {
    const d = v.replace(/^@/, '');
    if (!DOMAIN.test(d)) throw new AppError(Codes.PARAMETER_ERROR, `not an e-mail domain: ${raw}`);
    return d;
  }
  const [addr, bits, extra] = v.split('/');
  const family = isIP(addr ?? '');
  if (!family || extra !== undefined)
    throw new AppError(Codes.PARAMETER_ERROR, `not an IP address or range: ${raw}`);
  if (bits === undefined) return addr!;
  const n = Number(bits);
  const max = family === 4 ? 32 : 128;
  if (!/^\d+$/.test(bits) || n < (family === 4 ? 8 : 16) || n > max)
    throw new AppError(
      Codes.PARAMETER_ERROR,
      `prefix length must be ${family === 4 ? 8 : 16}–${max}: ${raw}`,
    );
  return `${addr}/${n}`;
}

export class BlocklistService {
  private cache: { at: number; ips: BlockList; domains: Set<string> } | null = null;
  constructor(private readonly deps: { repo: BlocklistRepo; now: () => number }) {}

  list(): Promise<BlockRule[]> {
    return this.deps.repo.list();
  }

  async add(
    kind: RuleKind,
    raw: string,
    note: string,
    actorId: number,
    actorIp: string | null,
  ): Promise<BlockRule> {
    const value = normaliseRule(kind, raw);
    if (
      kind === 'ip' &&
      actorIp &&
      this.build([{ kind, value } as BlockRule]).ips.check(actorIp, isIP(actorIp) === 6 ? 'ipv6' : 'ipv4')
    )
      throw new AppError(Codes.REFUSED, 'this rule would block your own address');
    if (await this.deps.repo.findValue(kind, value))
      throw new AppError(Codes.REFUSED, `${value} is already blacklisted`);
    const r = await this.deps.repo.create({
      kind,
      value,
      note: note.slice(0, 255),
      createdBy: actorId,
      createdAt: this.deps.now(),
    });
    this.cache = null;
    return r;
  }

  async remove(id: number): Promise<void> {
    if (!(await this.deps.repo.delete(id))) throw new AppError(Codes.NOT_FOUND, `rule ${id} not found`);
    this.cache = null;
  }

  private build(rules: Pick<BlockRule, 'kind' | 'value'>[]) {
    const ips = new BlockList();
    const domains = new Set<string>();
    for (const r of rules) {
      if (r.kind === 'domain') domains.add(r.value);
      else {
        const [addr, bits] = r.value.split('/');
        const type = isIP(addr!) === 6 ? 'ipv6' : 'ipv4';
        if (bits === undefined) ips.addAddress(addr!, type);
        else ips.addSubnet(addr!, Number(bits), type);
      }
    }
    return { ips, domains };
  }

  private async rules() {
    const now = this.deps.now();
    if (!this.cache || now - this.cache.at > CACHE_MS || now < this.cache.at)
      this.cache = { at: now, ...this.build(await this.deps.repo.list()) };
    return this.cache;
  }

  async ipBlocked(ip: string | null | undefined): Promise<boolean> {
    if (!ip) return false;
    const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(plain);
    if (!family) return false;
    return (await this.rules()).ips.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** Whether the e-mail's domain (or a parent domain of it) is blacklisted. */
  async emailBlocked(email: string | null | undefined): Promise<boolean> {
    const at = email?.lastIndexOf('@') ?? -1;
    if (!email || at < 0) return false;
    const { domains } = await this.rules();
    if (domains.size === 0) return false;
    const parts = email
      .slice(at + 1)
      .trim()
      .toLowerCase()
      .split('.');
    for (let i = 0; i < parts.length - 1; i++) if (domains.has(parts.slice(i).join('.'))) return true;
    return false;
  }
}
