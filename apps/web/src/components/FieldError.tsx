import type { ReactNode } from 'react';

/** A form field's problem, announced to screen readers (role alert); nothing while there is none. */
export function FieldError({ children }: { children: ReactNode }) {
  return children ? (
    <span className="field-error" role="alert">
      {children}
    </span>
  ) : null;
}
