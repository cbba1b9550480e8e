/** Every user-facing sentence that both the server and the web may show. Spanish, as in the spec. */
export const messages = {
  notFoundTitle: 'Página no encontrada',
  goHome: 'Ir a inicio',
  loading: {
    confirming: 'Confirmando',
    /** Inline, while the server is asked who is signed in (the cover is only for work on the phone). */
    session: 'Confirmando…',
    validating: 'Validando',
    doNotClose: 'Por favor espere, no cierre la ventana',
  },
  agenda: {
    timeUnavailable: 'Hora no disponible',
    descriptionUnavailable: 'Descripción no disponible',
    placeUnavailable: 'Lugar no disponible',
    copied: 'Agenda copiada con éxito',
    copyFailed: 'Error al copiar agenda',
    empty: 'No hay eventos en la agenda de hoy.',
  },
  notas: {
    seeMore: 'Ver más...',
    seeLess: 'Ver menos',
    empty: 'Todavía no hay notas publicadas.',
  },
  session: {
    /** 'Cerrar sesión' without a connection: only the server can end the session. */
    signOutNeedsConnection:
      'Sin conexión no se puede cerrar la sesión: sigues dentro y tus envíos siguen guardados en este teléfono. Intenta de nuevo cuando tengas conexión.',
  },
  api: {
    notFound: 'El recurso solicitado no existe.',
    badRequest: 'La solicitud no es válida.',
    internal: 'Ocurrió un error inesperado. Intenta de nuevo en unos minutos.',
    network: 'No hay conexión con el servidor. Revisa tu conexión e intenta de nuevo.',
    timeout: 'El servidor no respondió a tiempo. Revisa tu conexión e intenta de nuevo.',
    notReady: 'La base de datos no responde.',
    cannotWrite: 'La base de datos responde pero no puede guardar (¿disco lleno?).',
    forbiddenOrigin: 'Solicitud rechazada: origen no permitido.',
    storageUnavailable:
      'El almacenamiento de fotos no responde en este momento: no se guardó nada. Intenta de nuevo en unos minutos.',
    storageUnavailableRead: 'El almacenamiento de fotos no responde en este momento. Intenta de nuevo en unos minutos.',
    unavailableWrite:
      'El servidor no puede guardar en este momento (la base de datos o el almacenamiento no responde). No se guardó nada: intenta de nuevo en unos segundos.',
    unavailableRead:
      'El servidor no puede leer sus datos en este momento (la base de datos o el almacenamiento no responde). Intenta de nuevo en unos segundos.',
    unavailableUncertain:
      'Se perdió la conexión con la base de datos justo al guardar: puede que se haya guardado o no. Revisa si el cambio aparece antes de repetirlo.',
    diskFull:
      'El servidor se está quedando sin espacio y no recibe fotos nuevas por ahora: no se guardó nada. La foto se enviará de nuevo más tarde.',
    dataDirFull: 'La carpeta de datos del servidor está llena o no se puede leer: no puede guardar más.',
    requestTimeout:
      'La solicitud tardó demasiado en llegar y no se procesó: no se guardó nada. Revisa tu conexión e intenta de nuevo.',
  },
} as const;
