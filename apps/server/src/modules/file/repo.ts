/** Uploaded-file records over Kysely (table uploaded_files, migration 1400): the only SQL of the file slice. */

import type { Generated, Selectable } from 'kysely';
import { insertRow, rowWhere, snakeKeys } from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type { FileKind, FilePurpose, UploadedFile, UploadedFileRepo } from './ports.ts';

interface UploadedFilesTable {
  id: Generated<number>;
  key: string;
  user_id: number;
  kind: string;
  purpose: string;
  content_type: string;
  size: number;
  width: number | null;
  height: number | null;
  original_name: string;
  created_at: number;
}
type FDB = DB & { uploaded_files: UploadedFilesTable };

const toFile = (r: Selectable<UploadedFilesTable>): UploadedFile => ({
  id: Number(r.id),
  key: r.key,
  userId: Number(r.user_id),
  kind: r.kind as FileKind,
  purpose: r.purpose as FilePurpose,
  contentType: r.content_type,
  size: Number(r.size),
  width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height),
  originalName: r.original_name,
  createdAt: Number(r.created_at),
});

export class KyselyUploadedFileRepo extends SliceRepo<FDB> implements UploadedFileRepo {
  async create(f: Omit<UploadedFile, 'id'>) {
    return toFile(await insertRow(this.db, 'uploaded_files', snakeKeys(f)));
  }
  async findByKey(key: string) {
    const r = await rowWhere(this.db, 'uploaded_files', { key });
    return r && toFile(r);
  }
  async bytesSince(userId: number, since: number) {
    const r = await this.db
      .selectFrom('uploaded_files')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(r?.total ?? 0);
  }
}
