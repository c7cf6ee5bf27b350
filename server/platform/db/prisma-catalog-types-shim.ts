// Shim for `prisma migrate` through @prisma/adapter-pg 6.19 — upstream bug
// https://github.com/prisma/prisma/issues/27403 (prisma/orm#27403):
// the schema engine introspects pg_catalog, whose columns have the internal
// types `name`, `"char"`, `regclass`, ...; adapter-pg has no mapping for them
// and fails with "Column type 'name' could not be deserialized".
// We report those catalog types as text/text[] before the adapter sees them.
// Used only by prisma.config.ts (the CLI); the app's own client does not need it.
// Remove once the adapter maps these types itself.
import pg from "pg";

const TEXT = 25;
const TEXT_ARRAY = 1009;
/** pg_type OIDs of catalog-only types → the OID the adapter should see. */
const REPORT_AS: Record<number, number> = {
  18: TEXT, // "char"
  19: TEXT, // name
  24: TEXT, // regproc
  194: TEXT, // pg_node_tree
  1033: TEXT, // aclitem
  2202: TEXT, // regprocedure
  2203: TEXT, // regoper
  2204: TEXT, // regoperator
  2205: TEXT, // regclass
  2206: TEXT, // regtype
  4089: TEXT, // regnamespace
  4096: TEXT, // regrole
  1003: TEXT_ARRAY, // name[]
  1034: TEXT_ARRAY, // aclitem[]
};

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function reportCatalogTypesAsText<T>(result: T): T {
  for (const field of (result as QueryResultLike)?.fields ?? []) {
    const replacement = REPORT_AS[field.dataTypeID];
    if (replacement !== undefined) field.dataTypeID = replacement;
  }
  return result;
}

/** A pg.Client whose results never name a catalog-only column type. */
export class CatalogTypesAsTextClient extends pg.Client {
  // pg's query() has promise, callback and Submittable forms; cover the first two.
  override query(...args: unknown[]): never {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) =>
        (last as (e: unknown, r: unknown) => void)(err, err ? res : reportCatalogTypesAsText(res));
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (out && typeof (out as Promise<unknown>).then === "function") {
      return (out as Promise<unknown>).then(reportCatalogTypesAsText) as never;
    }
    return out as never;
  }
}
