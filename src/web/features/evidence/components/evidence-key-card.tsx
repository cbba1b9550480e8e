import { cardClass } from '#web/platform/ui/back-office';
import { useChainState } from '../api/get-chain-state';

/** Ajustes: the fingerprint of the key that signs evidence packages, to compare with a package's. */
export default function EvidenceKeyCard() {
  const state = useChainState();
  const fingerprint = state.data?.keyFingerprint;
  return (
    <section aria-labelledby="clave-evidencias" className={`${cardClass} flex flex-col gap-2`}>
      <h3 id="clave-evidencias" className="text-lg font-bold text-stone-900">
        Clave de los paquetes de evidencias
      </h3>
      <p className="text-stone-700">
        Huella (SHA-256 de la clave pública): la que debe mostrar{' '}
        <code>openssl pkey -pubin -in clave-publica.pem -outform DER | sha256sum</code> con la clave de un paquete.
      </p>
      <p className="font-mono text-sm break-all text-stone-900">{fingerprint ?? 'Consultando…'}</p>
    </section>
  );
}
