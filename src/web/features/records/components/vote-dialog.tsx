import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useState } from 'react';
import type { Candidate } from '#shared/features/records/records';
import type { ProcedureRecord } from '#shared/platform/records';

export interface VoteDialogProps {
  /** The record being voted; null while the dialog is closed. */
  record: ProcedureRecord | null;
  candidates: Candidate[];
  selected: string[];
  onToggle: (code: string) => void;
  onVote: () => void;
  onCancel: () => void;
  /** While the vote is being saved on the phone (milliseconds): 'Votar' does not take a second tap. */
  saving: boolean;
}

/** Asked before a vote with no candidate ticked is sent. */
export const EMPTY_VOTE_QUESTION = '¿Registrar el voto sin candidatos?';

/**
 * The spec's vote modal: one checkbox per candidate (code and name), 'Votar' and 'Cancelar'. No
 * minimum: a vote for nobody can be sent, once the validator answers that it is meant. Focus stays
 * inside while it is open; Escape and 'Cancelar' always close it (the vote is saved on the phone and
 * sent in the background, so nothing here waits for the network).
 */
export function VoteDialog({ record, candidates, selected, onToggle, onVote, onCancel, saving }: VoteDialogProps) {
  // The record whose empty vote was asked about; ticking a candidate makes the question moot.
  const [askedFor, setAskedFor] = useState<number | null>(null);
  const asking = record !== null && askedFor === record.id && selected.length === 0;
  const cancel = () => {
    setAskedFor(null);
    onCancel();
  };
  return (
    <Dialog open={record !== null} onClose={cancel} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-black/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end justify-center p-0 sm:items-center sm:p-4">
        <DialogPanel
          className="w-full max-w-md rounded-t-2xl bg-white p-5 shadow-xl sm:rounded-2xl"
          data-testid="vote-dialog"
        >
          <DialogTitle className="text-xl font-bold text-stone-900">Votar</DialogTitle>
          <Description className="mt-1 text-stone-700">
            Marca los candidatos de <strong className="font-semibold">{record?.nombre}</strong>.
          </Description>
          <form
            className="mt-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (saving || !record) return;
              if (selected.length === 0 && !asking) setAskedFor(record.id);
              else onVote();
            }}
          >
            <fieldset>
              <legend className="sr-only">Candidatos</legend>
              <ul className="flex flex-col gap-2">
                {candidates.map((candidate) => {
                  const id = `voto-${candidate.code}`;
                  const checked = selected.includes(candidate.code);
                  return (
                    <li key={candidate.code}>
                      <label
                        htmlFor={id}
                        className={`flex min-h-14 cursor-pointer items-center gap-3 rounded-xl border-2 px-4 py-3 transition-colors ${
                          checked ? 'border-brand bg-brand-light' : 'border-stone-200 bg-white hover:border-stone-400'
                        }`}
                      >
                        <input
                          id={id}
                          type="checkbox"
                          className="h-6 w-6 shrink-0 accent-brand"
                          checked={checked}
                          onChange={() => onToggle(candidate.code)}
                        />
                        <span
                          className="h-8 w-1.5 shrink-0 rounded-full"
                          style={{ backgroundColor: candidate.colour }}
                          aria-hidden="true"
                        />
                        <span className="flex flex-col">
                          <span className="text-lg font-bold text-stone-900">{candidate.code}</span>
                          <span className="text-stone-700">{candidate.name}</span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
            {asking ? (
              <fieldset className="mt-5 rounded-xl border-2 border-amber-600 bg-amber-50 p-4">
                <legend className="sr-only">{EMPTY_VOTE_QUESTION}</legend>
                <p className="font-bold text-stone-900" aria-hidden="true">
                  {EMPTY_VOTE_QUESTION}
                </p>
                <p className="mt-1 text-stone-800">No marcaste ningún candidato.</p>
                <div className="mt-3 flex gap-3">
                  <button
                    type="button"
                    onClick={() => setAskedFor(null)}
                    disabled={saving}
                    className="flex-1 rounded-lg border-2 border-stone-400 bg-white px-4 py-3 font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait"
                  >
                    Volver
                  </button>
                  <button
                    type="submit"
                    // biome-ignore lint/a11y/noAutofocus: the question takes focus so it is read and answered
                    autoFocus
                    disabled={saving}
                    className="flex-1 rounded-lg bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait disabled:bg-stone-300 disabled:text-stone-900"
                  >
                    Sí, registrar
                  </button>
                </div>
              </fieldset>
            ) : (
              <div className="mt-5 flex gap-3">
                <button
                  type="button"
                  onClick={cancel}
                  className="flex-1 rounded-lg border-2 border-stone-300 bg-white px-4 py-3 font-semibold text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait disabled:text-stone-700"
                >
                  Cancelar
                </button>
                <button
                  type="submit"
                  disabled={saving}
                  className="flex-1 rounded-lg bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait disabled:bg-stone-300 disabled:text-stone-900"
                >
                  Votar
                </button>
              </div>
            )}
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
