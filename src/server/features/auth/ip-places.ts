import ipaddr from 'ipaddr.js';
import maxmind, { type CityResponse, type Reader } from 'maxmind';
import { type IpPlaceSource, LOCAL_NETWORK } from '#shared/features/auth/auth';

/**
 * The place of an IP address for 'Sesiones abiertas' (docs/decisions/086): 'Maracaibo, Venezuela' from
 * the city database GEOIP_DATABASE names (MaxMind DB format: DB-IP's City Lite, MaxMind's GeoLite2 City),
 * read in memory through `maxmind`; 'Red local' for a private, loopback or link-local address; null
 * otherwise (nothing is guessed). Looked up when the list is read: nothing about places is stored.
 */
export interface IpPlaces {
  placeOf(ip: string | null): string | null;
  /** Whose data the places are, to credit where they are shown; null without a database. */
  source: IpPlaceSource | null;
}

const LOCAL_RANGES = new Set(['private', 'loopback', 'linkLocal', 'uniqueLocal']);

/** Whether `ip` is an address of the local network or of this machine (IPv4 inside IPv6 too). */
export function isLocalAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return LOCAL_RANGES.has(ipaddr.process(ip).range());
}

/** A name in Spanish where the database has one, else in English. */
const nameOf = (names: NonNullable<CityResponse['country']>['names'] | undefined) => names?.es ?? names?.en;

/** DB-IP's licence (CC BY 4.0) asks for this credit and link wherever its data are shown. */
function sourceOf(reader: Reader<CityResponse>): IpPlaceSource {
  const { databaseType } = reader.metadata;
  if (databaseType.startsWith('DBIP')) return { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com' };
  if (databaseType.startsWith('GeoLite2')) return { text: 'GeoLite2 de MaxMind', url: 'https://www.maxmind.com' };
  return { text: databaseType, url: null };
}

export function ipPlacesOf(reader: Reader<CityResponse> | undefined): IpPlaces {
  return {
    source: reader ? sourceOf(reader) : null,
    placeOf(ip) {
      if (!ip || !ipaddr.isValid(ip)) return null;
      if (isLocalAddress(ip)) return LOCAL_NETWORK;
      const found = reader?.get(ipaddr.process(ip).toString());
      const words = [nameOf(found?.city?.names), nameOf(found?.country?.names)].filter(Boolean);
      return words.length > 0 ? words.join(', ') : null;
    },
  };
}

/** Opens GEOIP_DATABASE at start: a file that is not a MaxMind database stops the start, said plainly. */
export async function openIpPlaces(file: string | undefined): Promise<IpPlaces> {
  if (!file) return ipPlacesOf(undefined);
  try {
    return ipPlacesOf(await maxmind.open<CityResponse>(file));
  } catch (error) {
    throw new Error(
      `GEOIP_DATABASE: ${file} no es una base de datos de ciudades en formato MaxMind (.mmdb, sin comprimir): ${(error as Error).message}`,
    );
  }
}
