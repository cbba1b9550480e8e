import { forwardRef, useState } from 'react';

export interface PasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  /** 'new-password' lets the browser offer to generate and remember a new one. */
  autoComplete?: 'current-password' | 'new-password';
  /** Read with the field (an error or a hint under it). */
  describedBy?: string;
}

/** A password input with the spec's eye toggle: a real button whose name says what it will do. */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(function PasswordField(
  { id, label, value, onChange, invalid = false, autoComplete = 'current-password', describedBy },
  ref,
) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="font-semibold text-stone-800">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={id}
          name={autoComplete === 'new-password' ? id : 'password'}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className="w-full rounded-lg border border-stone-400 bg-white py-3 pr-14 pl-4 text-base text-stone-900 shadow-sm outline-none focus:border-brand focus:ring-2 focus:ring-brand/30 aria-invalid:border-red-700"
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}
          aria-controls={id}
          className="absolute inset-y-0 right-0 flex w-12 items-center justify-center rounded-r-lg text-stone-600 hover:text-brand focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand"
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
    </div>
  );
});

function EyeIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

function EyeOffIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M3 3l18 18M10.6 6.1A9.9 9.9 0 0112 6c6.4 0 10 6 10 6a17.6 17.6 0 01-3.2 3.9M6.6 6.7C3.9 8.4 2 12 2 12s3.6 7 10 7a9.5 9.5 0 004.4-1.1M9.9 9.9a3 3 0 004.2 4.2"
      />
    </svg>
  );
}
