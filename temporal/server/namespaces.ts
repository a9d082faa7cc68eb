/** Namespace registry. `default` always exists; registrations are persisted like any change. */
import { randomUUID } from 'crypto';
import type { NamespaceRecord } from './store/log';
import { alreadyExists, invalidArgument, namespaceNotFound } from './engine/errors';
import { api, msDur } from './proto';

export class Namespaces {
  private byName = new Map<string, NamespaceRecord>();

  constructor(loaded: NamespaceRecord[]) {
    for (const n of loaded) this.byName.set(n.name, n);
  }

  /** Ensures `default` exists; returns a record to persist when it had to be created. */
  ensureDefault(): NamespaceRecord | undefined {
    if (this.byName.has('default')) return undefined;
    return this.create('default', 'Default namespace', '', 1);
  }

  create(name: string, description: string, ownerEmail: string, retentionDays: number): NamespaceRecord {
    if (!name || !/^[A-Za-z0-9._-]+$/.test(name)) throw invalidArgument(`Invalid namespace name "${name}"`);
    if (this.byName.has(name)) throw alreadyExists(`Namespace ${name} already exists.`);
    const rec: NamespaceRecord = {
      k: 'ns',
      name,
      id: randomUUID(),
      description,
      ownerEmail,
      retentionDays,
      data: {},
    };
    this.byName.set(name, rec);
    return rec;
  }

  get(name: string | null | undefined): NamespaceRecord {
    const n = this.byName.get(name || '');
    if (!n) throw namespaceNotFound(name ?? '');
    return n;
  }

  /**
   * Registers custom search attributes; a name already registered keeps its type (as a Temporal
   * server with SQL visibility does). Returns the record to persist, or undefined if nothing changed.
   */
  addSearchAttributes(name: string, attrs: Record<string, string>): NamespaceRecord | undefined {
    const n = this.get(name);
    const known = (n.searchAttributes ??= {});
    const added = Object.entries(attrs).filter(([k]) => !(k in known));
    for (const [k, type] of added) known[k] = type;
    return added.length ? n : undefined;
  }

  all(): NamespaceRecord[] {
    return [...this.byName.values()];
  }

  /** The DescribeNamespace / ListNamespaces shape. */
  describe(n: NamespaceRecord): api.workflowservice.v1.IDescribeNamespaceResponse {
    return {
      namespaceInfo: {
        name: n.name,
        id: n.id,
        state: api.enums.v1.NamespaceState.NAMESPACE_STATE_REGISTERED,
        description: n.description,
        ownerEmail: n.ownerEmail,
        data: n.data,
        // Capabilities are left empty on purpose: the SDK then uses the conservative paths.
      },
      config: {
        workflowExecutionRetentionTtl: msDur(n.retentionDays * 86400_000),
        historyArchivalState: api.enums.v1.ArchivalState.ARCHIVAL_STATE_DISABLED,
        visibilityArchivalState: api.enums.v1.ArchivalState.ARCHIVAL_STATE_DISABLED,
      },
      replicationConfig: { activeClusterName: 'active', clusters: [{ clusterName: 'active' }] },
      isGlobalNamespace: false,
    };
  }
}
