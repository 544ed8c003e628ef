/** zod schemas of the music routes: the contract's (`@mocap/contracts`); they also make the OpenAPI document. */
export {
  MusicCenterBody,
  MusicDownloadSchema,
  MusicSchema,
  MusicUrlsSchema,
} from '@mocap/contracts';
