/**
 * The community panel (issue 25): GET /sysConfig/community (what the sidebar shows: QR codes of the official
 * account and the two chat groups, the tutorial link, the browser recommendation) and POST
 * /sysConfig/saveCommunity (administrators).
 */

import { CommunitySaveBody, CommunitySchema, CommunitySettingsSchema } from '@mocap/contracts';
import { requireAdmin } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';

const routes = routePlugin(['system'], (r, { community }) => {
  r.get(
    '/sysConfig/community',
    {
      summary: 'The community panel: QR codes (link and/or signed webp picture), tutorial link, browser tip',
      data: CommunitySchema,
    },
    async () => community.view(),
  );

  r.post(
    '/sysConfig/communityInfo',
    {
      auth: requireAdmin,
      summary: 'The community settings as stored (administrators)',
      data: CommunitySettingsSchema,
    },
    async () => community.settings(),
  );

  r.post(
    '/sysConfig/saveCommunity',
    {
      auth: requireAdmin,
      summary:
        'Set the community panel: group links (https), QR pictures (uploadZM/ keys), tutorial link, browser tip',
      body: CommunitySaveBody,
      data: CommunitySettingsSchema,
    },
    async (req) => community.save(req.body),
  );
});

export default routes;
