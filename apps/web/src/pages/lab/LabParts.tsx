/** Pieces every lab page shows: its head (title and lead) and a button that opens the file picker. */
import type { ReactNode } from 'react';

export function LabHead({ title, lead }: { title: string; lead: string }) {
  return (
    <header className="lab-head">
      <h1>{title}</h1>
      <p className="lab-lead">{lead}</p>
    </header>
  );
}

/** A button (`className`, with `btn-file`) whose hidden file input hands what was picked to `onFiles`. */
export function FilePick(props: {
  className?: string;
  accept: string;
  multiple?: boolean;
  testId: string;
  onFiles: (files: FileList | null) => void;
  children: ReactNode;
}) {
  return (
    <label className={`${props.className ?? 'btn'} btn-file`}>
      {props.children}
      <input
        type="file"
        multiple={props.multiple}
        accept={props.accept}
        data-testid={props.testId}
        onChange={(e) => props.onFiles(e.target.files)}
      />
    </label>
  );
}
