/** SQL of the model page: videos per capture model (all time and the last 30 days). */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../infra/db/schema.ts';

export interface ModelUsage {
  model: string;
  videos: number;
  last30Days: number;
}

export class KyselyModelRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async usage(since: number): Promise<ModelUsage[]> {
    const { rows } = await sql<{ model: string; n: number | string; recent: number | string | null }>`
      select model_type as model, count(*) as n,
        sum(case when created_at >= ${since} then 1 else 0 end) as recent
      from videos group by model_type order by model_type`.execute(this.db);
    return rows.map((r) => ({ model: r.model, videos: Number(r.n), last30Days: Number(r.recent ?? 0) }));
  }
}
