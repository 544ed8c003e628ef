/**
 * manageModel (issue 21): which capture (pose) models are enabled and which one each plan's new uploads use.
 * Stored as one system setting; the video service asks `modelFor(plan)` at upload. Bundled character models are
 * the bone types the exporters ship (read-only here).
 */
import { AppError, Codes } from '../../errors.ts';

export const POSE_MODELS = ['lite', 'full', 'heavy'] as const;
export type PoseModelKey = (typeof POSE_MODELS)[number];
export const PLANS = ['free', 'monthly', 'yearly'] as const;
export type PlanKey = (typeof PLANS)[number];

export interface ModelSettings {
  enabled: Record<PoseModelKey, boolean>;
  byPlan: Record<PlanKey, PoseModelKey>;
}

export interface SettingsPort {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, now: number): Promise<void>;
}

export const SETTINGS_KEY = 'captureModels';

export class ModelService {
  constructor(
    private readonly deps: {
      settings: SettingsPort;
      now: () => number;
      /** The configured default (CAPTURE_MODEL): every plan uses it until an administrator chooses. */
      defaultModel: string;
      /** Videos per model, all time and since `since`. */
      usage: (since: number) => Promise<{ model: string; videos: number; last30Days: number }[]>;
    },
  ) {}

  private defaults(): ModelSettings {
    const d = (POSE_MODELS as readonly string[]).includes(this.deps.defaultModel)
      ? (this.deps.defaultModel as PoseModelKey)
      : 'heavy';
    return { enabled: { lite: true, full: true, heavy: true }, byPlan: { free: d, monthly: d, yearly: d } };
  }

  async get(): Promise<ModelSettings> {
    const raw = await this.deps.settings.get(SETTINGS_KEY);
    const base = this.defaults();
    if (!raw) return base;
    try {
      const s = JSON.parse(raw) as Partial<ModelSettings>;
      return { enabled: { ...base.enabled, ...s.enabled }, byPlan: { ...base.byPlan, ...s.byPlan } };
    } catch {
      return base;
    }
  }

  async save(next: ModelSettings): Promise<ModelSettings> {
    if (!POSE_MODELS.some((m) => next.enabled[m]))
      throw new AppError(Codes.PARAMETER_ERROR, 'at least one capture model must stay enabled');
    for (const plan of PLANS) {
      const m = next.byPlan[plan];
      if (!next.enabled[m])
        throw new AppError(
          Codes.PARAMETER_ERROR,
          `the ${plan} plan uses ${m}, which is disabled: choose another first`,
        );
    }
    await this.deps.settings.set(SETTINGS_KEY, JSON.stringify(next), this.deps.now());
    return next;
  }

  /** The settings with the videos captured by each model (last 30 days too). */
  async list() {
    return { ...(await this.get()), usage: await this.deps.usage(this.deps.now() - 30 * 86_400_000) };
  }

  /** The model a new upload of this plan is captured with. */
  async modelFor(plan: string): Promise<PoseModelKey> {
    const s = await this.get();
    const m = s.byPlan[(PLANS as readonly string[]).includes(plan) ? (plan as PlanKey) : 'free'];
    if (s.enabled[m]) return m;
    return POSE_MODELS.find((x) => s.enabled[x]) ?? 'heavy';
  }
}
