import { z } from 'zod';

export const siteInfoSchema = z.object({
  campaignName: z.string(),
  leaderName: z.string(),
  today: z.string(),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;
