// A throwaway P-256 key and self-signed certificate for "localhost",
// written to a temporary directory where net::tls_context::load reads
// them, and removed with the object. For the unit tests and fuzz targets
// that run a real TLS or QUIC handshake in process.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace baton::test {

struct certificate_files {
  std::string directory;
  std::string cert;
  std::string key;
  certificate_files() {
    char pattern[] = "/tmp/baton-tls-test-XXXXXX";
    directory = mkdtemp(pattern);
    cert = directory + "/cert.pem";
    key = directory + "/key.pem";
    EVP_PKEY* pkey = EVP_EC_gen("P-256");
    X509* x = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), 0);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600);
    X509_set_pubkey(x, pkey);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1,
                               0);
    X509_set_issuer_name(x, name);
    X509_sign(x, pkey, EVP_sha256());
    FILE* f = fopen(cert.c_str(), "w");
    PEM_write_X509(f, x);
    fclose(f);
    f = fopen(key.c_str(), "w");
    PEM_write_PrivateKey(f, pkey, nullptr, nullptr, 0, nullptr, nullptr);
    fclose(f);
    X509_free(x);
    EVP_PKEY_free(pkey);
  }
  ~certificate_files() {
    unlink(cert.c_str());
    unlink(key.c_str());
    rmdir(directory.c_str());
  }
  certificate_files(const certificate_files&) = delete;
  certificate_files& operator=(const certificate_files&) = delete;
};

}  // namespace baton::test
