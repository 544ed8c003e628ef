/** zod schemas of the digital-human routes: the contract's (`@mocap/contracts`); they also make the OpenAPI document. */
export {
  AdminTomokageSchema,
  AdminTomokageSearchBody,
  ApplyBody,
  ApplySchema,
  DeletedSchema,
  IdsBody,
  RedoneBody,
  TomokageCenterBody,
  TomokageDetailSchema,
  TomokageDownloadSchema,
  TomokageMotionSchema,
  TomokagePicturesSchema,
  TomokageSchema,
  TomokageUrlsSchema,
} from '@mocap/contracts';
