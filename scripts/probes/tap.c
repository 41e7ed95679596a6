// tap.c: can an AF_PACKET tap on "lo" give every TCP segment its own arrival stamp while the TCP reader stalls?
// Writer thread: N connections, 200-byte messages every I us per connection, CLOCK_REALTIME send time in bytes 0..7,
// TCP_NODELAY. Reader (main thread): SO_TIMESTAMPING RX_SOFTWARE|SOFTWARE, exactly 200 bytes per message, stalls
// 50 ms every 100*N messages. Tap thread: AF_PACKET SOCK_DGRAM ETH_P_ALL bound to lo, classic BPF filter
// (IPv4, TCP, not a fragment, source port == server port, optionally PACKET_HOST only), snap 128 bytes,
// SO_TIMESTAMPING RX_SOFTWARE|SOFTWARE, recvmmsg batches. It logs raw records; mapping to messages is done after.
// usage: tap [-n conns] [-i interval_us] [-m msgs_per_conn] [-s stall_ms] [-H] [-B batch] [-b rcvbuf]
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <errno.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/ip.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <linux/filter.h>
#include <linux/net_tstamp.h>
#include <pthread.h>

#define MSG 200
static int NC = 1, INTERVAL = 2000, M = 2000, STALL_MS = 50, HOSTONLY = 0, BATCH = 1, RCVBUF = 0;
static int lfd, port;
static int *sfd;                 // server-side fds
static volatile int stop_tap;
static long long ns(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}

// ---- tap records
typedef struct { long long ts; uint32_t seq; uint16_t dport, len; uint8_t flags, pkttype; } rec_t;
static rec_t *recs; static long nrec, maxrec = 8000000;
static long long tap_cpu_ns; static unsigned tp_packets, tp_drops; static long tap_calls, tap_nostamp, tap_bad;
static int tapfd;

static void* tap_thread(void* a){
  enum { SNAP = 128 };
  int B = BATCH; char (*bufs)[SNAP] = malloc((size_t)B*SNAP); char (*ctl)[256] = malloc((size_t)B*256);
  struct sockaddr_ll *sll = calloc(B, sizeof *sll); struct iovec *io = calloc(B, sizeof *io); struct mmsghdr *mm = calloc(B, sizeof *mm);
  while(!stop_tap){
    for(int i=0;i<B;i++){ io[i].iov_base=bufs[i]; io[i].iov_len=SNAP; memset(&mm[i].msg_hdr,0,sizeof mm[i].msg_hdr);
      mm[i].msg_hdr.msg_iov=&io[i]; mm[i].msg_hdr.msg_iovlen=1; mm[i].msg_hdr.msg_name=&sll[i]; mm[i].msg_hdr.msg_namelen=sizeof sll[i];
      mm[i].msg_hdr.msg_control=ctl[i]; mm[i].msg_hdr.msg_controllen=256; }
    int r = recvmmsg(tapfd, mm, B, MSG_WAITFORONE, 0); tap_calls++;
    if(r<0){ if(errno==EAGAIN||errno==EINTR) continue; perror("recvmmsg tap"); break; }
    for(int i=0;i<r;i++){
      long long kt=0;
      for(struct cmsghdr*c=CMSG_FIRSTHDR(&mm[i].msg_hdr);c;c=CMSG_NXTHDR(&mm[i].msg_hdr,c))
        if(c->cmsg_level==SOL_SOCKET&&c->cmsg_type==SO_TIMESTAMPING){struct timespec*ts=(struct timespec*)CMSG_DATA(c);kt=ts[0].tv_sec*1000000000LL+ts[0].tv_nsec;}
      if(!kt) tap_nostamp++;
      unsigned char *p=(unsigned char*)bufs[i]; unsigned got=mm[i].msg_len;
      if(got<20){tap_bad++;continue;}
      unsigned ihl=(p[0]&15)*4, tot=(p[2]<<8)|p[3];
      if(got<ihl+20){tap_bad++;continue;}
      struct tcphdr *t=(struct tcphdr*)(p+ihl); unsigned doff=t->doff*4;
      if(nrec<maxrec){ rec_t*x=&recs[nrec++]; x->ts=kt; x->seq=ntohl(t->seq); x->dport=ntohs(t->dest); x->len=tot-ihl-doff;
        x->flags=p[ihl+13]; x->pkttype=sll[i].sll_pkttype; }
    }
  }
  tap_cpu_ns = ns(CLOCK_THREAD_CPUTIME_ID);
  return 0;
}

static int open_tap(void){
  int fd = socket(AF_PACKET, SOCK_DGRAM, 0);            // protocol 0: receives nothing until bind
  if(fd<0){perror("socket AF_PACKET");exit(1);}
  struct sock_filter f[] = {
    BPF_STMT(BPF_LD|BPF_H|BPF_ABS, SKF_AD_OFF+SKF_AD_PROTOCOL),   // 0
    BPF_JUMP(BPF_JMP|BPF_JEQ|BPF_K, ETH_P_IP, 0, 10),              // 1 -> drop(12)
    BPF_STMT(BPF_LD|BPF_B|BPF_ABS, 9),                             // 2 ip proto
    BPF_JUMP(BPF_JMP|BPF_JEQ|BPF_K, IPPROTO_TCP, 0, 8),            // 3
    BPF_STMT(BPF_LD|BPF_H|BPF_ABS, 6),                             // 4 frag
    BPF_JUMP(BPF_JMP|BPF_JSET|BPF_K, 0x1fff, 6, 0),                // 5
    BPF_STMT(BPF_LDX|BPF_B|BPF_MSH, 0),                            // 6 x = ihl*4
    BPF_STMT(BPF_LD|BPF_H|BPF_IND, 0),                             // 7 tcp sport
    BPF_JUMP(BPF_JMP|BPF_JEQ|BPF_K, (unsigned)port, 0, 3),         // 8
    BPF_STMT(BPF_LD|BPF_W|BPF_ABS, SKF_AD_OFF+SKF_AD_PKTTYPE),     // 9
    BPF_JUMP(BPF_JMP|BPF_JEQ|BPF_K, PACKET_HOST, 0, HOSTONLY?1:0), // 10
    BPF_STMT(BPF_RET|BPF_K, 128),                                  // 11 accept, snap 128
    BPF_STMT(BPF_RET|BPF_K, 0),                                    // 12 drop
  };
  struct sock_fprog prog = { sizeof f/sizeof f[0], f };
  if(setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog)){perror("SO_ATTACH_FILTER");exit(1);}
  int flags=SOF_TIMESTAMPING_RX_SOFTWARE|SOF_TIMESTAMPING_SOFTWARE;
  if(setsockopt(fd,SOL_SOCKET,SO_TIMESTAMPING,&flags,sizeof flags)){perror("SO_TIMESTAMPING tap");exit(1);}
  if(RCVBUF && setsockopt(fd,SOL_SOCKET,SO_RCVBUFFORCE,&RCVBUF,sizeof RCVBUF)) perror("SO_RCVBUFFORCE");
  struct timeval tv={0,100000}; setsockopt(fd,SOL_SOCKET,SO_RCVTIMEO,&tv,sizeof tv);
  struct sockaddr_ll a={0}; a.sll_family=AF_PACKET; a.sll_protocol=htons(ETH_P_ALL); a.sll_ifindex=if_nametoindex("lo");
  if(bind(fd,(void*)&a,sizeof a)){perror("bind tap");exit(1);}
  return fd;
}

static void* writer(void* a){
  char msg[MSG]; memset(msg,'x',sizeof msg); int one=1;
  for(int i=0;i<NC;i++){ sfd[i]=accept(lfd,0,0); setsockopt(sfd[i],IPPROTO_TCP,TCP_NODELAY,&one,4); }
  usleep(10000);
  struct timespec t0; clock_gettime(CLOCK_MONOTONIC,&t0); long long base=t0.tv_sec*1000000000LL+t0.tv_nsec;
  for(int j=0;j<M;j++) for(int i=0;i<NC;i++){
    long long due = base + (long long)j*INTERVAL*1000 + (long long)i*INTERVAL*1000/NC;
    struct timespec d={due/1000000000LL, due%1000000000LL}; clock_nanosleep(CLOCK_MONOTONIC,TIMER_ABSTIME,&d,0);
    long long t=ns(CLOCK_REALTIME); memcpy(msg,&t,8); memcpy(msg+8,&j,4);
    if(write(sfd[i],msg,MSG)!=MSG){perror("write");exit(1);}
  }
  for(int i=0;i<NC;i++) shutdown(sfd[i],SHUT_WR);
  return 0;
}

static int cmpll(const void*a,const void*b){long long x=*(long long*)a,y=*(long long*)b;return x<y?-1:x>y;}
static void pr(const char*name, long long*v, long n){
  if(n==0){printf("| %-34s | 0 | - | - | - |\n",name);return;}
  qsort(v,n,8,cmpll); printf("| %-34s | %ld | %.1f | %.1f | %.1f |\n",name,n,v[n/2]/1e3,v[(long)(n*0.99)]/1e3,v[n-1]/1e3);
}

int main(int argc,char**argv){
  int o; while((o=getopt(argc,argv,"n:i:m:s:HB:b:"))!=-1) switch(o){
    case 'n':NC=atoi(optarg);break; case 'i':INTERVAL=atoi(optarg);break; case 'm':M=atoi(optarg);break;
    case 's':STALL_MS=atoi(optarg);break; case 'H':HOSTONLY=1;break; case 'B':BATCH=atoi(optarg);break; case 'b':RCVBUF=atoi(optarg);break;}
  recs = malloc(maxrec*sizeof *recs); sfd = calloc(NC,sizeof *sfd);
  lfd=socket(AF_INET,SOCK_STREAM,0);int one=1;setsockopt(lfd,SOL_SOCKET,SO_REUSEADDR,&one,4);
  struct sockaddr_in s={0};s.sin_family=AF_INET;s.sin_addr.s_addr=htonl(INADDR_LOOPBACK);
  bind(lfd,(void*)&s,sizeof s);socklen_t sl=sizeof s;getsockname(lfd,(void*)&s,&sl);port=ntohs(s.sin_port);listen(lfd,1024);
  tapfd = open_tap();
  pthread_t tth, wth; pthread_create(&tth,0,tap_thread,0); usleep(20000);
  pthread_create(&wth,0,writer,0);
  int *cfd=calloc(NC,sizeof(int)); uint16_t *cport=calloc(NC,2); static int port2conn[65536]; memset(port2conn,-1,sizeof port2conn);
  int flags=SOF_TIMESTAMPING_RX_SOFTWARE|SOF_TIMESTAMPING_SOFTWARE;
  for(int i=0;i<NC;i++){ cfd[i]=socket(AF_INET,SOCK_STREAM,0);
    if(setsockopt(cfd[i],SOL_SOCKET,SO_TIMESTAMPING,&flags,sizeof flags)){perror("SO_TIMESTAMPING");return 1;}
    if(connect(cfd[i],(void*)&s,sizeof s)){perror("connect");return 1;}
    struct sockaddr_in me; socklen_t ml=sizeof me; getsockname(cfd[i],(void*)&me,&ml); cport[i]=ntohs(me.sin_port); port2conn[cport[i]]=i; }
  long total=(long)NC*M;
  long long *snd=calloc(total,8),*tcp=calloc(total,8),*usr=calloc(total,8),*call=calloc(total,8),*thost=calloc(total,8),*tout=calloc(total,8);
  int *got=calloc(NC,sizeof(int)); long nread=0, nrecv=0, same=0, nostamp=0, multi_read_msgs=0; long long *prevk=calloc(NC,8);
  int ep=-1; if(NC>1){ ep=epoll_create1(0); for(int i=0;i<NC;i++){struct epoll_event e={EPOLLIN,{.u32=i}}; epoll_ctl(ep,EPOLL_CTL_ADD,cfd[i],&e);} }
  long long rd_cpu0=ns(CLOCK_THREAD_CPUTIME_ID); int open_conns=NC; long next_stall=100L*NC;
  struct epoll_event evs[256]; static long long st0[64],st1[64]; int nst=0;
  while(open_conns>0){
    int nev=1; if(NC>1){ nev=epoll_wait(ep,evs,256,1000); if(nev<=0) continue; } else evs[0].data.u32=0;
    for(int e=0;e<nev;e++){
      int i=evs[e].data.u32; if(got[i]<0) continue;
      if(nread>0 && nread>=next_stall){ if(nst<64){st0[nst]=ns(CLOCK_REALTIME);} usleep(STALL_MS*1000); if(nst<64){st1[nst]=ns(CLOCK_REALTIME);nst++;} next_stall+=100L*NC; }
      char buf[MSG],ctl[512]; int have=0; long long kt=0, tc=ns(CLOCK_REALTIME), u=0; int reads=0;
      while(have<MSG){ struct iovec io={buf+have,MSG-have};struct msghdr m={0};m.msg_iov=&io;m.msg_iovlen=1;m.msg_control=ctl;m.msg_controllen=sizeof ctl;
        ssize_t r=recvmsg(cfd[i],&m,0); u=ns(CLOCK_REALTIME); nrecv++; reads++;
        if(r<=0){ got[i]=-1; open_conns--; if(NC>1) epoll_ctl(ep,EPOLL_CTL_DEL,cfd[i],0); break; }
        have+=r; long long k2=0;
        for(struct cmsghdr*c=CMSG_FIRSTHDR(&m);c;c=CMSG_NXTHDR(&m,c)) if(c->cmsg_level==SOL_SOCKET&&c->cmsg_type==SO_TIMESTAMPING){
          struct timespec*ts=(struct timespec*)CMSG_DATA(c); k2=ts[0].tv_sec*1000000000LL+ts[0].tv_nsec;}
        if(!k2) nostamp++; else { if(k2==prevk[i]) same++; prevk[i]=k2; kt=k2; }
      }
      if(got[i]<0) continue;
      if(reads>1) multi_read_msgs++;
      int j; memcpy(&j,buf+8,4); long idx=(long)i*M+j; memcpy(&snd[idx],buf,8); tcp[idx]=kt; usr[idx]=u; call[idx]=tc; got[i]++; nread++;
    }
  }
  long long rd_cpu=ns(CLOCK_THREAD_CPUTIME_ID)-rd_cpu0;
  pthread_join(wth,0); usleep(100000); stop_tap=1; pthread_join(tth,0);
  struct tpacket_stats st; socklen_t stl=sizeof st; if(getsockopt(tapfd,SOL_PACKET,PACKET_STATISTICS,&st,&stl)==0){tp_packets=st.tp_packets;tp_drops=st.tp_drops;}

  // ---- map tap records to messages by sequence number
  uint32_t *isn=calloc(NC,4); char *hasisn=calloc(NC,1);
  long n_host=0,n_out=0,n_data=0,n_syn=0,n_other=0,n_nostampt=0, seg_msgs_max=0, retrans=0;
  long long d_outhost_sum=0; long n_outhost=0;
  for(long r=0;r<nrec;r++){ rec_t*x=&recs[r]; int c=port2conn[x->dport]; if(c<0){n_other++;continue;}
    if((x->flags&0x12)==0x12){ if(!hasisn[c]){isn[c]=x->seq;hasisn[c]=1;} n_syn++; continue; } }
  long dupmsg=0; long long *lastend=calloc(NC,8); long long *lastend_o=calloc(NC,8);
  for(long r=0;r<nrec;r++){ rec_t*x=&recs[r]; int c=port2conn[x->dport]; if(c<0||!hasisn[c]||x->len==0) continue;
    if(x->flags&0x02) continue;
    if(x->pkttype==PACKET_HOST) n_host++; else if(x->pkttype==PACKET_OUTGOING) n_out++;
    if(!x->ts) n_nostampt++;
    uint32_t off=x->seq-(isn[c]+1); long long lo_=off, hi=(long long)off+x->len;   // bytes [lo_,hi)
    long long *arr = x->pkttype==PACKET_HOST ? thost : tout; long long *le = x->pkttype==PACKET_HOST ? lastend : lastend_o;
    if(lo_<le[c]) { if(hi<=le[c]) retrans++; }
    if(hi>le[c]) le[c]=hi;
    long k0=lo_/MSG;   // first message whose last byte k*200+199 >= lo_
    long nm=0;
    for(long k=k0; (long long)k*MSG+MSG-1 < hi; k++){ if((long long)k*MSG+MSG-1 < lo_) continue; if(k>=M) break;
      long idx=(long)c*M+k; if(!arr[idx]) arr[idx]=x->ts; else if(x->pkttype==PACKET_HOST) dupmsg++; nm++; }
    if(x->pkttype==PACKET_HOST){ n_data++; if(nm>seg_msgs_max) seg_msgs_max=nm; }
  }
  // out->host delay per message
  long long *dtap=malloc(total*8),*dout=malloc(total*8),*dtcp=malloc(total*8),*dusr=malloc(total*8),*dth=malloc(total*8);
  long long *dtu=malloc(total*8); long ntu=0; long long *stap=malloc(total*8),*sout=malloc(total*8),*stcp=malloc(total*8),*susr=malloc(total*8); long nsq=0;
  long long *qtap=malloc(total*8),*qout=malloc(total*8),*qtcp=malloc(total*8),*qusr=malloc(total*8);
  long na=0,nq=0,nth=0,missing=0, tap_eq_tcp_unq=0, unq=0, tap_same_prev=0, tcp_same_prev_msg=0;
  for(int c=0;c<NC;c++) for(int k=0;k<M;k++){ long idx=(long)c*M+k; if(!snd[idx]) continue;
    if(!thost[idx]){missing++;continue;}
    int q = snd[idx] < call[idx];
    dtap[na]=thost[idx]-snd[idx]; dout[na]=tout[idx]?tout[idx]-snd[idx]:0; dtcp[na]=tcp[idx]-snd[idx]; dusr[na]=usr[idx]-snd[idx]; na++;
    if(tout[idx]){ dth[nth++]=thost[idx]-tout[idx]; }
    if(q){ qtap[nq]=thost[idx]-snd[idx]; qout[nq]=tout[idx]?tout[idx]-snd[idx]:0; qtcp[nq]=tcp[idx]-snd[idx]; qusr[nq]=usr[idx]-snd[idx]; nq++; }
    else { unq++; if(thost[idx]==tcp[idx]) tap_eq_tcp_unq++; dtu[ntu++]=tcp[idx]-thost[idx]; }
    int sq=0; for(int w=0;w<nst;w++) if(snd[idx]>=st0[w] && snd[idx]<st1[w]) sq=1;
    if(sq){ stap[nsq]=thost[idx]-snd[idx]; sout[nsq]=tout[idx]?tout[idx]-snd[idx]:0; stcp[nsq]=tcp[idx]-snd[idx]; susr[nsq]=usr[idx]-snd[idx]; nsq++; }
    if(k>0 && thost[idx]==thost[idx-1]) tap_same_prev++;
    if(k>0 && tcp[idx]==tcp[idx-1]) tcp_same_prev_msg++;
  }
  long long wall=0;
  printf("conns %d, interval %d us, msgs/conn %d, stall %d ms every %d msgs, tap batch %d, host-only filter %d, rcvbuf %d\n",
    NC,INTERVAL,M,STALL_MS,100*NC,BATCH,HOSTONLY,RCVBUF);
  printf("messages read %ld; TCP recvmsg calls %ld (messages needing >1 read %ld); reads without TCP stamp %ld; reads whose TCP stamp == previous read's (same conn) %ld\n",
    nread,nrecv,multi_read_msgs,nostamp,same);
  printf("tap: records %ld (SYN/ACK %ld, unmatched %ld), data segments PACKET_HOST %ld, PACKET_OUTGOING %ld, no stamp %ld, segs entirely below highest seen end (dup/reordered) %ld, HOST msg-stamps already set (true duplicates) %ld, max msgs ending in one seg %ld\n",
    nrec,n_syn,n_other,n_host,n_out,n_nostampt,retrans,dupmsg,seg_msgs_max);
  printf("tap: recvmmsg calls %ld, PACKET_STATISTICS tp_packets %u tp_drops %u\n",tap_calls,tp_packets,tp_drops);
  printf("tap thread CPU %.1f ms = %.2f us/message, %.2f us/packet (tp_packets), %.2f us/recvmmsg call; reader thread CPU %.1f ms = %.2f us/message\n",
    tap_cpu_ns/1e6, tap_cpu_ns/1e3/(nread?nread:1), tap_cpu_ns/1e3/(tp_packets?tp_packets:1), tap_cpu_ns/1e3/(tap_calls?tap_calls:1), rd_cpu/1e6, rd_cpu/1e3/(nread?nread:1));
  printf("messages without tap stamp %ld; messages whose tap (HOST) stamp == previous message's %ld; whose TCP stamp == previous message's %ld\n",missing,tap_same_prev,tcp_same_prev_msg);
  printf("unqueued messages %ld, of which tap HOST stamp == TCP stamp exactly: %ld\n",unq,tap_eq_tcp_unq);
  printf("\n| stamp - send (us), ALL messages | n | p50 | p99 | max |\n|---|---|---|---|---|\n");
  pr("tap PACKET_HOST - send",dtap,na); pr("tap PACKET_OUTGOING - send",dout,na); pr("TCP kernel stamp - send",dtcp,na); pr("user stamp - send",dusr,na);
  printf("\n| stamp - send (us), QUEUED (sent before read call) | n | p50 | p99 | max |\n|---|---|---|---|---|\n");
  pr("tap PACKET_HOST - send",qtap,nq); pr("tap PACKET_OUTGOING - send",qout,nq); pr("TCP kernel stamp - send",qtcp,nq); pr("user stamp - send",qusr,nq);
  printf("\n| stamp - send (us), STALL-QUEUED (sent while the reader slept, %d stalls) | n | p50 | p99 | max |\n|---|---|---|---|---|\n",nst);
  pr("tap PACKET_HOST - send",stap,nsq); if(!HOSTONLY) pr("tap PACKET_OUTGOING - send",sout,nsq); pr("TCP kernel stamp - send",stcp,nsq); pr("user stamp - send",susr,nsq);
  printf("\n| HOST - OUTGOING stamp (us) | n | p50 | p99 | max |\n|---|---|---|---|---|\n"); pr("HOST - OUTGOING",dth,nth); pr("TCP - HOST, unqueued messages",dtu,ntu);
  (void)wall;(void)d_outhost_sum;(void)n_outhost;(void)lastend_o;
  return 0;
}
