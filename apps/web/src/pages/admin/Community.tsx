/**
 * The community panel's settings on the maintenance page (issue 25): for the official account, the chat group and
 * the second chat group a link (https; the panel draws its QR code) and/or an uploaded QR picture (POST /file/upload,
 * purpose qrcode) with a note, the shooting-tutorial link and the browser recommendation. Read with POST
 * /sysConfig/communityInfo, saved with POST /sysConfig/saveCommunity (the `service` module's read and write), the
 * preview shows what users' sidebar will show.
 */
import {
  type Community,
  CommunityGroupKeySchema,
  type CommunityEntry as Entry,
  type CommunityGroupKey as Group,
  type CommunitySettings as Settings,
} from '@mocap/contracts';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { ta } from '../../i18n/admin.ts';
import { api, upload } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';
import { toast } from '../../lib/messages.ts';
import { Field, Switch, useLoad } from './Console.tsx';
import { act, Btn, TextInput } from './kit.tsx';

const GROUPS = CommunityGroupKeySchema.options;

const isHttps = (u: string) => {
  try {
    return new URL(u).protocol === 'https:';
  } catch {
    return false;
  }
};

/** The code the panel will show: the uploaded picture, else one drawn from the link. */
function Preview({ entry, picture }: { entry: Entry; picture: string | null }) {
  const [drawn, setDrawn] = useState<string | null>(null);
  useEffect(() => {
    setDrawn(null);
    if (picture || !isHttps(entry.url)) return;
    let live = true;
    QRCode.toDataURL(entry.url, { margin: 1, width: 240 })
      .then((d) => live && setDrawn(d))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [entry.url, picture]);
  const src = picture ?? drawn;
  return (
    <div className="admin-qr">
      {src ? <img src={src} alt="" /> : <span className="admin-muted">{ta('community.noCode')}</span>}
    </div>
  );
}

function GroupCard({
  group,
  entry,
  picture,
  canWrite,
  set,
  setPicture,
}: {
  group: Group;
  entry: Entry;
  picture: string | null;
  canWrite: boolean;
  set: (e: Partial<Entry>) => void;
  setPicture: (url: string | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const badLink = entry.url !== '' && !isHttps(entry.url);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('purpose', 'qrcode');
    form.append('file', file, file.name);
    setBusy(true);
    try {
      const r = await upload<{ key: string; url: string }>('/file/upload', form, () => {}).promise;
      set({ imageKey: r.key });
      setPicture(r.url);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="admin-community-group" data-testid={`community-admin-${group}`}>
      <h3>{t(`community.${group}`)}</h3>
      <div className="admin-community-row">
        <Preview entry={entry} picture={entry.imageKey ? picture : null} />
        <div className="admin-community-fields">
          <Field label="community.link">
            <TextInput
              maxLength={1024}
              value={entry.url}
              set={(v) => set({ url: v.trim() })}
              testId={`community-url-${group}`}
            />
          </Field>
          {badLink && <div className="admin-error">{ta('community.httpsOnly')}</div>}
          <Field label="community.note">
            <TextInput maxLength={64} value={entry.note} set={(v) => set({ note: v })} />
          </Field>
          {canWrite && (
            <div className="admin-actions">
              <input
                ref={input}
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                hidden
                data-testid={`community-file-${group}`}
                onChange={(e) => void choose(e.target.files?.[0])}
              />
              <Btn
                label={busy ? ta('admin.loading') : ta('community.upload')}
                onClick={() => input.current?.click()}
              />
              {entry.imageKey && (
                <Btn
                  label={ta('community.removePicture')}
                  danger
                  onClick={() => {
                    set({ imageKey: '' });
                    setPicture(null);
                  }}
                />
              )}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

export function CommunitySettings({ canWrite }: { canWrite: boolean }) {
  const [stored, reload] = useLoad(() => api.post<Settings>('/sysConfig/communityInfo'), []);
  const [view] = useLoad(() => api.get<Community>('/sysConfig/community', { silent: true }), [stored]);
  const [f, setF] = useState<Settings | null>(null);
  const [pictures, setPictures] = useState<Partial<Record<Group, string | null>>>({});
  useEffect(() => setF(stored), [stored]);
  useEffect(() => {
    if (!view) return;
    setPictures(Object.fromEntries(view.groups.map((g) => [g.key, g.imageUrl])));
  }, [view]);
  if (!f) return <div className="admin-card">{ta('admin.loading')}</div>;
  // Functional updates: a picture upload finishes later and must not undo what was changed meanwhile.
  const setGroup = (g: Group, e: Partial<Entry>) =>
    setF((p) => (p ? { ...p, groups: { ...p.groups, [g]: { ...p.groups[g], ...e } } } : p));
  const badTutorial = f.tutorialUrl !== '' && !isHttps(f.tutorialUrl);
  const invalid = badTutorial || GROUPS.some((g) => f.groups[g].url !== '' && !isHttps(f.groups[g].url));
  return (
    <section className="admin-card" data-testid="community-settings">
      <h2>{ta('community.title')}</h2>
      <p className="admin-muted">{ta('community.help')}</p>
      <div className="admin-community">
        {GROUPS.map((g) => (
          <GroupCard
            key={g}
            group={g}
            entry={f.groups[g]}
            picture={pictures[g] ?? null}
            canWrite={canWrite}
            set={(e) => setGroup(g, e)}
            setPicture={(url) => setPictures((p) => ({ ...p, [g]: url }))}
          />
        ))}
      </div>
      <Field label="community.tutorial">
        <TextInput
          maxLength={1024}
          value={f.tutorialUrl}
          set={(v) => setF((p) => (p ? { ...p, tutorialUrl: v.trim() } : p))}
          testId="community-tutorial-url"
        />
      </Field>
      {badTutorial && <div className="admin-error">{ta('community.httpsOnly')}</div>}
      <Switch
        checked={f.browserTip}
        disabled={!canWrite}
        onChange={(v) => setF((p) => (p ? { ...p, browserTip: v } : p))}
        label={ta('community.browserTip')}
        testId="community-browser-tip"
      />
      {canWrite && (
        <div className="admin-row-end">
          <Btn
            primary
            label={ta('admin.save')}
            testId="community-save"
            onClick={() =>
              invalid
                ? toast.error(ta('community.httpsOnly'))
                : act(
                    () =>
                      api.post('/sysConfig/saveCommunity', {
                        groups: f.groups,
                        tutorialUrl: f.tutorialUrl,
                        browserTip: f.browserTip,
                      }),
                    reload,
                    'admin.saved',
                  )
            }
          />
        </div>
      )}
    </section>
  );
}
