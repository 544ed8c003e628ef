/**
 * Lab page `mmd` (issue 22): for MikuMikuDance users. Pick one of my motions (captures, dances, bought library
 * animations); the page fetches its VMD-TDA zip — the very file a download gives — and plays the VMD on an MMD
 * model in the browser with the model's leg IK (`MmdViewer`), then "Download VMD" saves that zip. The model is our
 * MMD standard-bone mannequin, or the user's own PMX (+ textures) opened locally; a local .vmd plays too.
 * VMD is a paid-plan format (as for every download): a free account gets the note and the local-file path.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { saveUrl } from '../../components/DownloadDialog.tsx';
import { tlab } from '../../i18n/lab.ts';
import { toast } from '../../lib/messages.ts';
import { useSession } from '../../lib/session.tsx';
import { MmdViewer, mannequinModel, modelFromPmx, parsePmx, parseVmd } from '../../three/MmdViewer.ts';
import { FilePick, LabHead } from './LabParts.tsx';
import { fileFromZip, type LabMotion, labMotions, motionKey, zipOf } from './sources.ts';
import '../../styles/lab.css';
import { useViewerIn } from '../../three/useViewer.ts';

const VMD_BONE_TYPE = 'VMD-TDA';

const toBuffer = (b: Uint8Array): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export function MmdPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const paid = (user?.plan ?? 'free') !== 'free';
  const holder = useRef<HTMLDivElement>(null);
  const viewer = useRef<MmdViewer | null>(null);
  const [motions, setMotions] = useState<LabMotion[] | null>(null);
  const [pick, setPick] = useState('');
  const [busy, setBusy] = useState(false);
  const [modelName, setModelName] = useState(tlab('mmd.mannequin'));
  const [info, setInfo] = useState<{ bones: number; sec: number } | null>(null);
  const [playing, setPlaying] = useState(true);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');

  useViewerIn(
    holder,
    viewer,
    (el) => {
      const v = new MmdViewer(el);
      v.setModel(mannequinModel());
      setState('ready');
      return v;
    },
    () => setState('error'),
  );

  useEffect(() => {
    labMotions()
      .then((list) => {
        setMotions(list);
        if (list[0]) setPick(motionKey(list[0]));
      })
      .catch(() => setMotions([]));
  }, []);

  const chosen = motions?.find((m) => motionKey(m) === pick) ?? null;

  const playVmd = (bytes: Uint8Array) => {
    const v = viewer.current;
    if (!v) return;
    const r = v.setMotion(parseVmd(toBuffer(bytes)));
    v.playing = true;
    setPlaying(true);
    setInfo({ bones: r.keyedBones, sec: Math.round(r.duration * 10) / 10 });
  };

  const play = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      const zip = await zipOf(chosen, VMD_BONE_TYPE);
      playVmd((await fileFromZip(zip.url, '.vmd')).bytes);
    } catch (e) {
      toast.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    if (!chosen) return;
    try {
      const zip = await zipOf(chosen, VMD_BONE_TYPE);
      saveUrl(zip.url, zip.name);
    } catch (e) {
      toast.error((e as Error).message);
    }
  };

  const openVmd = async (file: File | undefined) => {
    if (!file) return;
    try {
      playVmd(new Uint8Array(await file.arrayBuffer()));
    } catch (e) {
      toast.error((e as Error).message);
    }
  };

  const openModel = async (files: FileList | null) => {
    if (!files?.length) return;
    const list = [...files];
    const pmx = list.find((f) => f.name.toLowerCase().endsWith('.pmx'));
    if (!pmx) {
      toast.warning(tlab('mmd.noPmx'));
      return;
    }
    try {
      const doc = parsePmx(await pmx.arrayBuffer());
      const textures = new Map(list.map((f) => [f.name.toLowerCase(), URL.createObjectURL(f)]));
      viewer.current?.setModel(modelFromPmx(doc, textures));
      setModelName(doc.metadata.modelName || pmx.name);
      setInfo(null);
    } catch (e) {
      toast.error((e as Error).message);
    }
  };

  return (
    <div className="lab-page mmd-page">
      <LabHead title={tlab('lab.mmd')} lead={tlab('mmd.lead')} />
      <div className="lab-body">
        <aside className="lab-panel">
          <section>
            <h3>{tlab('mmd.model')}</h3>
            <div className="lab-row">
              <button
                type="button"
                className="btn"
                data-testid="mmd-mannequin"
                onClick={() => {
                  viewer.current?.setModel(mannequinModel());
                  setModelName(tlab('mmd.mannequin'));
                  setInfo(null);
                }}
              >
                {tlab('mmd.mannequin')}
              </button>
            </div>
            <FilePick
              multiple
              accept=".pmx,.png,.jpg,.jpeg,.bmp,.tga"
              testId="mmd-pmx"
              onFiles={(files) => void openModel(files)}
            >
              {tlab('mmd.ownModel')}
            </FilePick>
            <p className="lab-hint">{tlab('mmd.ownModelHint')}</p>
          </section>
          <section>
            <h3>{tlab('mmd.motion')}</h3>
            {motions && motions.length === 0 && <p className="lab-hint">{tlab('mmd.none')}</p>}
            {motions && motions.length > 0 && (
              <select
                className="lab-select"
                aria-label={tlab('mmd.pick')}
                data-testid="mmd-motion"
                value={pick}
                onChange={(e) => setPick(e.target.value)}
              >
                {motions.map((m) => (
                  <option key={motionKey(m)} value={motionKey(m)}>
                    {`${m.name} · ${tlab(`mmd.kind.${m.kind}`)} · ${Math.round(m.duration)} s`}
                  </option>
                ))}
              </select>
            )}
            {paid ? (
              <div className="lab-row">
                <button
                  type="button"
                  className="btn btn-primary"
                  data-testid="mmd-play"
                  disabled={!chosen || busy}
                  onClick={() => void play()}
                >
                  {busy ? tlab('mmd.loading') : tlab('mmd.play')}
                </button>
                <button
                  type="button"
                  className="btn"
                  data-testid="mmd-download"
                  disabled={!chosen}
                  onClick={() => void download()}
                >
                  {tlab('mmd.download')}
                </button>
              </div>
            ) : (
              <p className="lab-note" data-testid="mmd-paid">
                {tlab('mmd.paid')}{' '}
                <button type="button" className="link" onClick={() => navigate('/asPay/index')}>
                  {tlab('mmd.upgrade')}
                </button>
              </p>
            )}
            <FilePick accept=".vmd" testId="mmd-vmd" onFiles={(files) => void openVmd(files?.[0])}>
              {tlab('mmd.ownVmd')}
            </FilePick>
          </section>
          {info && (
            <p className="lab-info" data-testid="mmd-info">
              {tlab('mmd.info', { model: modelName, bones: info.bones, sec: info.sec })}
            </p>
          )}
          {info && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                if (!viewer.current) return;
                viewer.current.playing = !playing;
                setPlaying(!playing);
              }}
            >
              {playing ? tlab('mmd.pause') : tlab('mmd.resume')}
            </button>
          )}
          <p className="lab-credit">{tlab('mmd.credit')}</p>
        </aside>
        <div
          className="lab-stage"
          ref={holder}
          data-testid="mmd-stage"
          data-state={state}
          data-model={modelName}
        />
      </div>
    </div>
  );
}
